/// The GitHub REST v3 shapes the demo upstream serves and the upstream client reads.
/// Only the fields this service uses, plus a few that make the demo look familiar.
public struct GitHubUser: Codable, Sendable, Equatable {
    public let login: String
    public let id: Int
    public let avatarUrl: String
    public let name: String?
    public let type: String?
    public let publicRepos: Int?

    public init(login: String, id: Int, avatarUrl: String, name: String?, type: String? = "User", publicRepos: Int? = nil) {
        self.login = login
        self.id = id
        self.avatarUrl = avatarUrl
        self.name = name
        self.type = type
        self.publicRepos = publicRepos
    }

    enum CodingKeys: String, CodingKey {
        case login, id, name, type
        case avatarUrl = "avatar_url"
        case publicRepos = "public_repos"
    }

    /// GitHub sends `"name": null` rather than omitting it; the demo does the same.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(login, forKey: .login)
        try container.encode(id, forKey: .id)
        try container.encode(avatarUrl, forKey: .avatarUrl)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(type, forKey: .type)
        try container.encodeIfPresent(publicRepos, forKey: .publicRepos)
    }
}

public struct GitHubRepo: Codable, Sendable, Equatable {
    public let id: Int
    public let name: String
    public let language: String?
    public let stargazersCount: Int

    public init(id: Int, name: String, language: String?, stargazersCount: Int) {
        self.id = id
        self.name = name
        self.language = language
        self.stargazersCount = stargazersCount
    }

    enum CodingKeys: String, CodingKey {
        case id, name, language
        case stargazersCount = "stargazers_count"
    }
}

struct GitHubMessage: Codable {
    let message: String
}

/// One entry of the upstream's `/users` page (the fields `/users` uses).
struct UpstreamUser: Decodable, Sendable {
    let login: String
    let id: Int
    let avatarUrl: String
    let name: String?

    enum CodingKeys: String, CodingKey {
        case login, id, name
        case avatarUrl = "avatar_url"
    }
}

/// One entry of `/users`, the same JSON as stream-service's (keys sorted, `name` always present).
struct UserWithAvatar: Encodable, Sendable {
    struct Avatar: Encodable, Sendable {
        let url: String
        let upstreamUrl: String
        let contentType: String
        let bytes: Int
        let sha256: String
    }

    let id: Int
    let login: String
    let name: String?
    let avatar: Avatar

    enum CodingKeys: String, CodingKey { case id, login, name, avatar }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(login, forKey: .login)
        try container.encode(name, forKey: .name)
        try container.encode(avatar, forKey: .avatar)
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A GitHub account as the upstream client reads it: an item of `GET /users` (GitHub's
/// `simple-user`) or the answer of `GET /users/{login}` (`public-user`).
///
/// Only `login`, `id` and `avatar_url` are read as required (both schemas require them);
/// everything else is optional, so every body either schema allows decodes. List items
/// carry no `name` at all, and a public profile's `name` may be null.
///
/// Two decoders on purpose: `Decodable` (through `JSONDecoder`) is the authority, and
/// `GitHubUserReader` the fast path that returns nil for anything it does not read plainly,
/// handing the body to `JSONDecoder`; `GitHubUserReaderTests` holds their results equal.
public struct GitHubUser: Codable, Sendable, Equatable {
    public let login: String
    public let id: Int
    public let avatarUrl: String
    public let type: String?
    public let name: String?
    public let company: String?
    public let blog: String?
    public let location: String?
    public let bio: String?
    public let publicRepos: Int?
    public let followers: Int?
    public let following: Int?
    public let createdAt: String?

    public init(
        login: String, id: Int, avatarUrl: String, type: String? = "User", name: String? = nil,
        company: String? = nil, blog: String? = nil, location: String? = nil, bio: String? = nil,
        publicRepos: Int? = nil, followers: Int? = nil, following: Int? = nil, createdAt: String? = nil
    ) {
        self.login = login
        self.id = id
        self.avatarUrl = avatarUrl
        self.type = type
        self.name = name
        self.company = company
        self.blog = blog
        self.location = location
        self.bio = bio
        self.publicRepos = publicRepos
        self.followers = followers
        self.following = following
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case login, id, type, name, company, blog, location, bio, followers, following
        case avatarUrl = "avatar_url"
        case publicRepos = "public_repos"
        case createdAt = "created_at"
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceJSON

/// One entry of `/users` and one `user` event of `/users/stream`.
///
/// Two JSON writers on purpose: `Codable` (with `JSONEncoder`, sorted keys) is the reference,
/// `writeJSON` the fast path the routes use; `AnswerJSONTests` holds their bytes equal.
public struct UserWithAvatar: Codable, Sendable, Equatable {
    public let id: Int
    public let login: String
    /// The display name, known only from the public profile (`profile=true`).
    public let name: String?
    public let avatar: AvatarMetadata
    /// Present only with `profile=true`.
    public let profile: PublicProfile?

    public init(id: Int, login: String, name: String? = nil, avatar: AvatarMetadata, profile: PublicProfile? = nil) {
        self.id = id
        self.login = login
        self.name = name
        self.avatar = avatar
        self.profile = profile
    }

    /// This entry with the user's public profile attached.
    public func with(profile user: GitHubUser) -> UserWithAvatar {
        UserWithAvatar(id: id, login: login, name: user.name, avatar: avatar, profile: PublicProfile(user))
    }

    /// Without a profile, `name` is absent, as in GitHub's own list; with one, `name` is
    /// always present, null when the user has none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(login, forKey: .login)
        try container.encode(avatar, forKey: .avatar)
        if let profile {
            try container.encode(name, forKey: .name)
            try container.encode(profile, forKey: .profile)
        }
    }
}

extension UserWithAvatar: JSONWritable {
    /// The bytes `encode(to:)` gives through `JSONEncoder` (sorted keys), written directly.
    public func writeJSON(to json: inout JSONOutput) {
        json.object { json in
            json.field("avatar", avatar)
            json.field("id", id)
            json.field("login", login)
            if let profile {
                json.field("name", name)
                json.field("profile", profile)
            }
        }
    }
}

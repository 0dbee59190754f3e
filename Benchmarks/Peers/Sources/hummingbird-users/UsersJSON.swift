// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// One entry of the upstream's `/users` page (the fields `/users` uses).
struct UpstreamUser: Decodable, Sendable {
    let login: String
    let id: Int
    let avatarUrl: String

    enum CodingKeys: String, CodingKey {
        case login, id
        case avatarUrl = "avatar_url"
    }
}

/// One entry of `/users`, the same JSON as stream-service's (its `name` comes only with `profile=true`,
/// which this peer does not offer). The same object, not the same bytes: without `--sorted-keys true`
/// `JSONEncoder` writes each object's keys in its dictionary's order, which varies from run to run.
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
    let avatar: Avatar
}

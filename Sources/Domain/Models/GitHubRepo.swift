// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A repository as the upstream client reads it from `GET /users/{login}/repos` (GitHub's
/// `minimal-repository`). `id` and `name` are required there; `language` may be null and
/// `stargazers_count` may be absent, so both are optional here.
public struct GitHubRepo: Codable, Sendable, Equatable {
    public let id: Int
    public let name: String
    public let language: String?
    public let stargazersCount: Int?

    public init(id: Int, name: String, language: String?, stargazersCount: Int?) {
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

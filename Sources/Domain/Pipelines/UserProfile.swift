// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// `/users/{login}`: the user and a summary of their repositories.
public struct UserProfile: Codable, Sendable, Equatable {
    public struct User: Codable, Sendable, Equatable {
        public let id: Int
        public let login: String
        public let name: String?
        /// The service's own `/users/{login}/avatar`.
        public let avatarUrl: String

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(login, forKey: .login)
            try container.encode(name, forKey: .name)
            try container.encode(avatarUrl, forKey: .avatarUrl)
        }
    }

    public let user: User
    public let repos: RepoSummary
}

/// Count, total stars and the most used languages of a user's repositories.
public struct RepoSummary: Codable, Sendable, Equatable {
    public let count: Int
    public let stars: Int
    /// Up to three languages, most repositories first, ties by name.
    public let topLanguages: [String]

    public init(count: Int, stars: Int, topLanguages: [String]) {
        self.count = count
        self.stars = stars
        self.topLanguages = topLanguages
    }

    public init(repos: [GitHubRepo]) {
        var perLanguage: [String: Int] = [:]
        for language in repos.compactMap(\.language) { perLanguage[language, default: 0] += 1 }
        let ranked = perLanguage.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        self.init(count: repos.count, stars: repos.reduce(0) { $0 + ($1.stargazersCount ?? 0) }, topLanguages: ranked.prefix(3).map(\.key))
    }
}

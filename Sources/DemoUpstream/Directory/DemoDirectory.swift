// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The demo upstream's data: users 1…count and their repositories, computed from the id
/// on demand (nothing stored), identical on every run.
public struct DemoDirectory: Sendable {
    public let userCount: Int

    public init(userCount: Int) {
        self.userCount = max(0, userCount)
    }

    static let firstNames = [
        "Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Margaret", "Dennis", "Frances", "Ken",
        "Radia", "John", "Hedy", "Tim", "Katherine", "Linus", "Annie", "Niklaus", "Sophie", "Bjarne",
    ]
    static let lastNames = [
        "Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Hamilton", "Ritchie", "Allen",
        "Thompson", "Perlman", "Backus", "Lamarr", "Berners-Lee", "Johnson", "Torvalds", "Easley",
        "Wirth", "Wilson", "Stroustrup",
    ]
    static let languages = ["Swift", "Rust", "Go", "C", "Python", "TypeScript", "Kotlin", "Haskell", "Zig", "OCaml"]
    static let repoWords = ["stream", "parser", "kernel", "compiler", "cache", "router", "queue", "shader", "ledger", "notes"]
    static let companies = ["Analytical Engines", "Harvard Mark I", "Bletchley Park", "Bell Labs", "Xerox PARC"]
    static let cities = ["London", "Arlington", "Manchester", "Eindhoven", "Boston", "Palo Alto", "Murray Hill"]
    /// Every 25th user has this many repositories: more than one page of 100, so `Link`
    /// paging is exercised (GitHub users with hundreds of repos are common).
    public static let prolificRepoCount = 150

    /// Logins end with the id ("ada1", "grace2"), which makes lookup by login O(1).
    public func user(id: Int) -> DemoUser? {
        guard (1...max(1, userCount)).contains(id), userCount > 0 else { return nil }
        var hash = StableHash(id)
        let first = Self.firstNames[(id - 1) % Self.firstNames.count]
        let last = Self.lastNames[Int(hash.next() % UInt64(Self.lastNames.count))]
        // Every fifth user has no display name, as many GitHub accounts do.
        let name: String? = id % 5 == 0 ? nil : "\(first) \(last)"
        let login = Self.login(of: id)
        // Every third user leaves company, location and bio empty, as most accounts do.
        let sparse = id % 3 == 0
        return DemoUser(
            id: id, login: login, name: name,
            company: sparse ? nil : Self.companies[Int(hash.next() % UInt64(Self.companies.count))],
            location: sparse ? nil : Self.cities[Int(hash.next() % UInt64(Self.cities.count))],
            bio: sparse ? nil : "Writes \(Self.languages[id % Self.languages.count]) for fun.",
            blog: sparse ? "" : "https://\(login).example",
            followers: Int(hash.next() % 1000), following: Int(hash.next() % 100),
            createdAt: Self.timestamp(daysAfter2008: id % 5000),
            // One user in twenty has an avatar_url that redirects to the avatar origin: every
            // page of 20 meets a redirect, and the extra round trips still fit in the slack of
            // a parallel page (100 avatars, 16 at a time: 7 rounds of 50 ms with or without them).
            avatarBehindRedirect: id % 20 == 2)
    }

    public func user(login: String) -> DemoUser? {
        id(ofLogin: login).flatMap(user(id:))
    }

    /// The id of the user with this login, without making the user (formatting its dates
    /// is most of what `user(login:)` costs) (the figure: Benchmarks/README.md).
    public func id(ofLogin login: String) -> Int? {
        // Logins are ASCII: a login with other bytes names no user.
        let digits = login.utf8.reversed().prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard !digits.isEmpty, let id = Int(Substring(login.utf8.suffix(digits.count))), id >= 1, id <= userCount else { return nil }
        return Self.login(of: id) == login ? id : nil
    }

    /// The lower-cased first name and the id ("ada1", "grace2").
    static func login(of id: Int) -> String {
        loginPrefixes[(id - 1) % loginPrefixes.count] + String(id)
    }

    private static let loginPrefixes = firstNames.map { $0.lowercased() }

    /// Users with `id > since`, ascending, at most `perPage` of them.
    public func users(since: Int, perPage: Int) -> [DemoUser] {
        let start = max(since, 0) + 1
        guard start <= userCount, perPage > 0 else { return [] }
        return (start...min(userCount, start + perPage - 1)).compactMap { user(id: $0) }
    }

    public func repos(of user: DemoUser) -> [DemoRepo] {
        var hash = StableHash(user.id &* 31 &+ 7)
        let count = user.id % 25 == 0 ? Self.prolificRepoCount : Int(hash.next() % 6)
        return (0..<count).map { index in
            let word = Self.repoWords[Int(hash.next() % UInt64(Self.repoWords.count))]
            let language = Self.languages[Int(hash.next() % UInt64(Self.languages.count))]
            let stars = Int(hash.next() % 500)
            return DemoRepo(
                id: user.id * 1000 + index, name: "\(word)-\(index + 1)", owner: user.login,
                language: index % 5 == 4 ? nil : language,
                // Every fourth repo omits stargazers_count, which GitHub's schema allows.
                stars: index % 4 == 3 ? nil : stars,
                description: index % 2 == 0 ? "A \(word) in \(language)" : nil,
                createdAt: Self.timestamp(daysAfter2008: (user.id + index * 37) % 5000))
        }
    }

    /// `YYYY-MM-DDT12:00:00Z`, `days` after 2008-01-01 (GitHub's launch year): fixed, so answers
    /// and their ETags are identical on every run.
    static func timestamp(daysAfter2008 days: Int) -> String {
        let date = Date(timeIntervalSince1970: 1_199_145_600 + Double(days) * 86_400 + 43_200)
        return date.formatted(Date.ISO8601FormatStyle())
    }
}

public struct DemoUser: Sendable, Equatable {
    public let id: Int
    public let login: String
    public let name: String?
    public let company: String?
    public let location: String?
    public let bio: String?
    public let blog: String
    public let followers: Int
    public let following: Int
    public let createdAt: String
    public let avatarBehindRedirect: Bool
}

public struct DemoRepo: Sendable, Equatable {
    public let id: Int
    public let name: String
    public let owner: String
    public let language: String?
    public let stars: Int?
    public let description: String?
    public let createdAt: String
}

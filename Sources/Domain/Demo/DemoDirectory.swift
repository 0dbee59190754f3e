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

    /// Logins end with the id ("ada1", "grace2"), which makes lookup by login O(1).
    public func user(id: Int) -> DemoUser? {
        guard (1...max(1, userCount)).contains(id), userCount > 0 else { return nil }
        var hash = StableHash(id)
        let first = Self.firstNames[(id - 1) % Self.firstNames.count]
        let last = Self.lastNames[Int(hash.next() % UInt64(Self.lastNames.count))]
        // Every fifth user has no display name, as many GitHub accounts do.
        let name: String? = id % 5 == 0 ? nil : "\(first) \(last)"
        return DemoUser(id: id, login: "\(first.lowercased())\(id)", name: name)
    }

    public func user(login: String) -> DemoUser? {
        let digits = login.reversed().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let id = Int(String(digits.reversed())), let user = user(id: id) else { return nil }
        return user.login == login ? user : nil
    }

    /// Users with `id > since`, ascending, at most `perPage` of them.
    public func users(since: Int, perPage: Int) -> [DemoUser] {
        let start = max(since, 0) + 1
        guard start <= userCount, perPage > 0 else { return [] }
        return (start...min(userCount, start + perPage - 1)).compactMap { user(id: $0) }
    }

    public func repos(of user: DemoUser) -> [DemoRepo] {
        var hash = StableHash(user.id &* 31 &+ 7)
        let count = Int(hash.next() % 6)
        return (0..<count).map { index in
            let word = Self.repoWords[Int(hash.next() % UInt64(Self.repoWords.count))]
            let language = Self.languages[Int(hash.next() % UInt64(Self.languages.count))]
            let stars = Int(hash.next() % 500)
            return DemoRepo(
                id: user.id * 100 + index, name: "\(word)-\(index + 1)", owner: user.login,
                language: index == 4 ? nil : language, stars: stars)
        }
    }
}

public struct DemoUser: Sendable, Equatable {
    public let id: Int
    public let login: String
    public let name: String?
}

public struct DemoRepo: Sendable, Equatable {
    public let id: Int
    public let name: String
    public let owner: String
    public let language: String?
    public let stars: Int
}

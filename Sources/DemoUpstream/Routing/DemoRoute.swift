// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What a demo request's path asks for, read from its bytes in one pass: no array of
/// `Substring`s, no `Substring` comparison (the figure: Benchmarks/README.md).
///
/// The path's segments are what lies between slashes, empty ones skipped (`//users/` is
/// `/users`), as a split on "/" makes them; no route has more than three.
///
/// Why not the HTTP library's `Router`: the demo answers `DemoRequest`s, not the server's
/// `Request` — `DemoUpstreamTransport` asks it with no socket and no HTTP request at all (the
/// virtual-time tests of the client and pipelines) — and one of its routes, `/{login}.png`, is a
/// suffix inside a segment, which `Router`'s `{parameter}` segments do not express. Behind the
/// server the demo is one catch-all route (`Router(handler:)`), so the shared-upstream figures
/// (`profile-upstream.sh`, `demo-upstream-cpu.sh`) pay one route look-up and this byte match.
enum DemoRoute: Equatable {
    /// `/rate_limit`
    case rateLimit
    /// `/{login}.png` on the API origin, which redirects to the avatar origin.
    case avatarRedirect(login: Substring)
    /// `/u/{id}`; nil when the id is no number.
    case avatar(id: Int?)
    /// `/users`
    case users
    /// `/users/{login}`
    case user(login: Substring)
    /// `/users/{login}/repos`
    case repos(login: Substring)
    case notFound

    init(_ request: borrowing DemoRequest) {
        var target = request.target
        let pathBytes = request.pathBytes
        guard request.isASCII, let match = target.withUTF8({ Self.match(UnsafeBufferPointer(rebasing: $0[..<pathBytes])) }) else {
            // Outside ASCII a slash followed by a combining mark is one character with it, and no separator.
            self = Self.matchCharacters(request.pathText.split(separator: "/"))
            return
        }
        let utf8 = target.utf8
        func text(_ range: Range<Int>) -> Substring {
            Substring(utf8[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)])
        }
        self = switch match {
        case .rateLimit: .rateLimit
        case .users: .users
        case .avatarRedirect(let login): .avatarRedirect(login: text(login))
        case .avatar(let id, let digits): .avatar(id: id ?? Int(text(digits)))
        case .user(let login): .user(login: text(login))
        case .repos(let login): .repos(login: text(login))
        case .notFound: .notFound
        }
    }

    /// A route with its parts as byte offsets into the path.
    private enum Match {
        case rateLimit, users, notFound
        case avatarRedirect(Range<Int>), user(Range<Int>), repos(Range<Int>)
        /// The id when its text is plain digits, else the text for `Int.init` to judge (`+3`, `-1`, `abc`).
        case avatar(Int?, Range<Int>)
    }

    /// The route of an ASCII path; nil for a path with other bytes.
    private static func match(_ bytes: UnsafeBufferPointer<UInt8>) -> Match? {
        var segments = (0..<0, 0..<0, 0..<0)
        var count = 0
        var start = 0
        for index in 0...bytes.count {
            let byte = index < bytes.count ? bytes[index] : UInt8(ascii: "/")
            guard byte < 0x80 else { return nil }
            guard byte == UInt8(ascii: "/") else { continue }
            if start < index {
                switch count {
                case 0: segments.0 = start..<index
                case 1: segments.1 = start..<index
                case 2: segments.2 = start..<index
                default: break
                }
                count += 1
            }
            start = index + 1
        }
        func spells(_ range: Range<Int>, _ word: StaticString) -> Bool {
            range.count == word.utf8CodeUnitCount && zip(bytes[range], UnsafeBufferPointer(start: word.utf8Start, count: range.count)).allSatisfy(==)
        }
        /// Up to 18 digits cannot overflow an `Int`.
        func digits(_ range: Range<Int>) -> Int? {
            guard range.count <= 18 else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        let (first, second, third) = segments
        switch count {
        case 1 where spells(first, "rate_limit"): return .rateLimit
        case 1 where spells(first, "users"): return .users
        case 1 where first.count >= 4 && spells(first.upperBound - 4..<first.upperBound, ".png"):
            return .avatarRedirect(first.lowerBound..<first.upperBound - 4)
        case 2 where spells(first, "u"): return .avatar(digits(second), second)
        case 2 where spells(first, "users"): return .user(second)
        case 3 where spells(first, "users") && spells(third, "repos"): return .repos(second)
        default: return .notFound
        }
    }

    /// The same over `Character`s, for a path outside ASCII.
    private static func matchCharacters(_ segments: [Substring]) -> DemoRoute {
        switch segments.count {
        case 1 where segments[0] == "rate_limit": .rateLimit
        case 1 where segments[0] == "users": .users
        case 1 where segments[0].hasSuffix(".png"): .avatarRedirect(login: segments[0].dropLast(4))
        case 2 where segments[0] == "u": .avatar(id: Int(segments[1]))
        case 2 where segments[0] == "users": .user(login: segments[1])
        case 3 where segments[0] == "users" && segments[2] == "repos": .repos(login: segments[1])
        default: .notFound
        }
    }
}

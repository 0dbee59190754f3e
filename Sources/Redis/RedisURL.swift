// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// Where and how to reach Redis: `redis://[user:password@]host:port[/db]`, or
/// `rediss://…` for TLS. Port defaults to 6379, database to 0.
///
/// A malformed URL is a `RedisURL.Invalid` whose description says what is wrong,
/// without echoing the password.
public struct RedisURL: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String?
    public var password: String?
    public var database: Int
    public var usesTLS: Bool

    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    public static let defaultPort = 6379

    public init(host: String, port: Int = RedisURL.defaultPort, user: String? = nil, password: String? = nil, database: Int = 0, usesTLS: Bool = false) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
        self.usesTLS = usesTLS
    }

    public init(parsing text: String) throws {
        func invalid(_ reason: String) -> Invalid { Invalid(description: "invalid Redis URL: \(reason)") }
        let rest: Substring
        if text.hasPrefix("redis://") {
            usesTLS = false
            rest = text.dropFirst("redis://".count)
        } else if text.hasPrefix("rediss://") {
            usesTLS = true
            rest = text.dropFirst("rediss://".count)
        } else {
            throw invalid("scheme must be redis:// or rediss://")
        }
        guard !rest.contains(where: { $0 == "?" || $0 == "#" || $0.isWhitespace }) else {
            throw invalid("query, fragment and whitespace are not allowed")
        }
        let slash = rest.firstIndex(of: "/")
        let authority = rest[..<(slash ?? rest.endIndex)]
        // The last "@" separates the credentials: a password may contain "@" only percent-encoded, but be lenient.
        var hostPort = authority
        user = nil
        password = nil
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            hostPort = authority[authority.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                let name = try Self.decode(credentials[..<colon], invalid("bad percent-encoding in the user"))
                user = name.isEmpty ? nil : name
                password = try Self.decode(credentials[credentials.index(after: colon)...], invalid("bad percent-encoding in the password"))
            } else {
                // `redis://secret@host` is how several clients spell a password without a user.
                password = try Self.decode(credentials, invalid("bad percent-encoding in the password"))
            }
            if password == "" { password = nil }
        }
        let portText: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw invalid("unterminated IPv6 address") }
            host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
            let after = hostPort[hostPort.index(after: close)...]
            if after.isEmpty { portText = nil } else {
                guard after.hasPrefix(":") else { throw invalid("unexpected text after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = hostPort.lastIndex(of: ":") {
            host = String(hostPort[..<colon])
            portText = hostPort[hostPort.index(after: colon)...]
        } else {
            host = String(hostPort)
            portText = nil
        }
        guard !host.isEmpty else { throw invalid("missing host") }
        if let portText {
            guard let port = Int(portText), (1...65535).contains(port) else { throw invalid("port '\(portText)' is not a number in 1...65535") }
            self.port = port
        } else {
            port = Self.defaultPort
        }
        database = 0
        if let slash {
            let path = rest[rest.index(after: slash)...]
            if !path.isEmpty {
                guard let database = Int(path), database >= 0 else { throw invalid("database '\(path)' is not a non-negative number") }
                self.database = database
            }
        }
    }

    private static func decode(_ text: Substring, _ error: @autoclosure () -> Invalid) throws -> String {
        guard let decoded = PercentEncoding.decodeStrictly(text) else { throw error() }
        return decoded
    }

    /// The URL with the password masked, for logs.
    public var description: String {
        let scheme = usesTLS ? "rediss" : "redis"
        let credentials = password == nil && user == nil ? "" : "\(user ?? ""):\(password == nil ? "" : "***")@"
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(credentials)\(hostPart):\(port)/\(database)"
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// `--redis-sentinels`: `[redis://|rediss://][user:password@]host[:port],host[:port],…[/db]`.
///
/// The sentinels only say where the primary is; the credentials, database and scheme are the
/// primary's (and TLS, with `rediss://`, is used for the sentinels too, as a TLS deployment of
/// Sentinel serves it). A host without a port is a sentinel on 26379.
///
/// Malformed text is a `RedisURL.Invalid` whose description never echoes the password.
public struct RedisSentinelList: Sendable, Equatable {
    public static let defaultPort = 26379

    public var sentinels: [RedisAddress]
    /// The primary's credentials, database and TLS; its host and port are the first sentinel's
    /// (never dialled: the primary's address comes from the sentinels).
    public var url: RedisURL

    public init(sentinels: [RedisAddress], url: RedisURL) {
        self.sentinels = sentinels
        self.url = url
    }

    public init(parsing text: String) throws {
        func invalid(_ reason: String) -> RedisURL.Invalid { RedisURL.Invalid(description: "invalid sentinel list: \(reason)") }
        var rest = Substring(text)
        var scheme = "redis://"
        for prefix in ["redis://", "rediss://"] where rest.hasPrefix(prefix) {
            scheme = prefix
            rest = rest.dropFirst(prefix.count)
        }
        guard !rest.contains("://") else { throw invalid("scheme must be redis:// or rediss://") }
        var credentials: Substring = ""
        if let at = rest.lastIndex(of: "@") {
            credentials = rest[...at]
            rest = rest[rest.index(after: at)...]
        }
        var path: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            path = rest[slash...]
            rest = rest[..<slash]
        }
        var sentinels: [RedisAddress] = []
        for item in rest.split(separator: ",", omittingEmptySubsequences: false) {
            let entry = item.trimmingWhitespaceOnEdges()
            guard !entry.isEmpty else { throw invalid("empty entry; expected host:port,host:port,…") }
            // Parsed as a URL of its own, so IPv6 brackets and port checks are RedisURL's.
            let address: RedisURL
            do {
                address = try RedisURL(parsing: "redis://\(entry)")
            } catch {
                throw invalid("'\(entry)': \(String(describing: error).replacingPrefix("invalid Redis URL: "))")
            }
            let explicitPort = entry.hasSuffix("]") ? false : entry.split(separator: "]").last?.contains(":") ?? false
            sentinels.append(RedisAddress(host: address.host, port: explicitPort ? address.port : Self.defaultPort))
        }
        guard let first = sentinels.first else { throw invalid("no sentinel") }
        let host = first.host.contains(":") ? "[\(first.host)]" : first.host
        do {
            url = try RedisURL(parsing: "\(scheme)\(credentials)\(host):\(first.port)\(path)")
        } catch {
            throw invalid(String(describing: error).replacingPrefix("invalid Redis URL: "))
        }
        self.sentinels = sentinels
    }
}

private extension Substring {
    func trimmingWhitespaceOnEdges() -> Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<Swift.max(start, end)]
    }
}

private extension String {
    func replacingPrefix(_ prefix: String) -> String { hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self }
}

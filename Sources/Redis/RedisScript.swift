// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// A Lua script called by its SHA-1 (`EVALSHA`), so its body crosses the wire only when
/// Redis does not have it yet: the shared feed's publish script is about 1 KB, sent with
/// every batch by `EVAL`, where `EVALSHA` sends 40 bytes.
///
/// Redis forgets scripts when it restarts or on `SCRIPT FLUSH`; `EVALSHA` then answers
/// `NOSCRIPT` (see `isMissingScript`), and the caller sends the same call as `EVAL`,
/// which runs the script and stores it again.
public struct RedisScript: Sendable, Equatable {
    public let source: String
    /// The lower-case hex SHA-1 of `source`, the name Redis files it under.
    public let sha1: String

    public init(_ source: String) {
        self.source = source
        sha1 = MessageDigest.sha1.hex(Array(source.utf8))
    }

    /// `EVALSHA sha1 numkeys key… argument…`.
    public func evalSHA(keys: [String], arguments: [String]) -> [String] {
        ["EVALSHA", sha1, String(keys.count)] + keys + arguments
    }

    /// `EVAL source numkeys key… argument…`: runs the script and makes Redis keep it.
    public func eval(keys: [String], arguments: [String]) -> [String] {
        ["EVAL", source, String(keys.count)] + keys + arguments
    }

    /// Whether `error` says Redis does not know the script (the reply to `EVALSHA` after a restart).
    public static func isMissingScript(_ error: RedisError) -> Bool {
        if case .server(let message) = error { return message.hasPrefix("NOSCRIPT") }
        return false
    }
}

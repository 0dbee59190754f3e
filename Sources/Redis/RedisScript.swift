import COpenSSL

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
        sha1 = Self.sha1Hex(Array(source.utf8))
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

    private static func sha1Hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                _ = SHA1(input.baseAddress, input.count, output.baseAddress)
            }
        }
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(digest.count * 2)
        for byte in digest {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

import Domain

/// Strong entity tags (RFC 9110 §8.8.3) made from a representation's bytes, and
/// the `If-None-Match` check that turns a repeat request into `304 Not Modified`.
enum EntityTag {
    /// The quoted SHA-256 of `bytes`: equal bytes, equal tag, so it stays strong across restarts.
    static func strong(for bytes: [UInt8]) -> String {
        "\"\(SHA256Digest.hex(bytes))\""
    }

    /// `If-None-Match` uses weak comparison: `W/` prefixes are ignored, `*` matches anything.
    static func matches(_ header: String, etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingWhitespace()
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }

    /// Whether `request` already holds the representation tagged `etag`.
    static func isFresh(_ request: Request, etag: String) -> Bool {
        request.headers["If-None-Match"].map { matches($0, etag: etag) } ?? false
    }
}

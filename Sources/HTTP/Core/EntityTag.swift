// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Entity tags (RFC 9110 §8.8.3) and the `If-None-Match` check that turns a
/// repeat request into `304 Not Modified`.
public enum EntityTag {
    /// `If-None-Match` uses weak comparison: `W/` prefixes are ignored, `*` matches anything,
    /// and the gzip variant of a tag (see `gzipVariant`) matches the tag itself.
    public static func matches(_ header: String, etag: String) -> Bool {
        let gzipped = gzipVariant(of: etag)
        return header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingWhitespace()
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == "*" || tag == etag || tag == gzipped
        }
    }

    /// Whether `request` already holds the representation tagged `etag`.
    public static func isFresh(_ request: Request, etag: String) -> Bool {
        request.headers["If-None-Match"].map { matches($0, etag: etag) } ?? false
    }

    /// The tag of the gzip-coded representation of the one tagged `etag`: `"abc"` → `"abc-gzip"`.
    /// A strong tag names exact bytes, so the compressed body needs a tag of its own;
    /// a weak tag stays as it is.
    public static func gzipVariant(of etag: String) -> String {
        guard etag.hasPrefix("\""), etag.hasSuffix("\""), etag.count >= 2 else { return etag }
        return String(etag.dropLast()) + "-gzip\""
    }
}

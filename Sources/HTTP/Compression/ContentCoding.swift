// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// gzip negotiation: whether a client accepts gzip and whether a response is worth compressing.
enum ContentCoding {
    /// True when `Accept-Encoding` allows gzip: `gzip`/`x-gzip` with q > 0, or
    /// `*` with q > 0 when gzip is not itself listed (an explicit `gzip;q=0` wins).
    static func acceptsGzip(_ acceptEncoding: String?) -> Bool {
        guard let acceptEncoding else { return false }
        var wildcard: Bool?
        for element in acceptEncoding.split(separator: ",") {
            let parts = element.split(separator: ";")
            guard let coding = parts.first?.trimmingSpaces, !coding.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.trimmingSpaces
                if pair.hasPrefix("q=") || pair.hasPrefix("Q=") {
                    quality = Double(pair.dropFirst(2)) ?? 0
                }
            }
            if HTTPHeaders.sameName(coding, "gzip") || HTTPHeaders.sameName(coding, "x-gzip") {
                return quality > 0
            }
            if coding == "*" { wildcard = quality > 0 }
        }
        return wildcard ?? false
    }

    /// Text-like media types compress well; images and event streams are left alone.
    static func isCompressible(contentType: String?) -> Bool {
        guard let contentType = contentType?.lowercased() else { return false }
        if contentType.hasPrefix("text/event-stream") { return false }
        return contentType.hasPrefix("text/")
            || contentType.hasPrefix("application/json")
            || contentType.hasPrefix("application/problem+json")
            || contentType.contains("+json")
            || contentType.contains("+xml")
            || contentType.hasPrefix("application/xml")
            || contentType.hasPrefix("application/yaml")
            || contentType.hasPrefix("application/x-yaml")
            || contentType.hasPrefix("application/javascript")
    }
}

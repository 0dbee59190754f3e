// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A request's header list for HTTP/2 (RFC 9113 §8.3.1): the pseudo-headers from its URL, then its
/// fields with lowercase names, without `Host` (`:authority` says it) and the fields that mean
/// something to one HTTP/1.1 connection only (§8.2.2).
enum HTTP2RequestFields {
    static func fields(of request: HTTPClientRequest) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [
            (":method", request.method.rawValue),
            (":scheme", request.isSecure ? "https" : "http"),
            (":authority", request.hostHeader),
            (":path", request.target),
        ]
        fields.reserveCapacity(4 + request.headers.count + request.extraHeaders.count)
        for list in [request.headers, request.extraHeaders] {
            for (name, value) in list {
                let lowercased = HTTP2RequestHead.lowercasedName(name)
                if lowercased == "host" || HTTP2RequestHead.isConnectionSpecific(lowercased) { continue }
                if lowercased == "te" && value != "trailers" { continue }
                fields.append((lowercased, value))
            }
        }
        return fields
    }
}

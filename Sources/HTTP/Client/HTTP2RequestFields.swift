// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A request's header list for HTTP/2 (RFC 9113 §8.3.1): the pseudo-headers from its URL, then its
/// fields with lowercase names, without `Host` (`:authority` says it) and the fields that mean
/// something to one HTTP/1.1 connection only (§8.2.2).
enum HTTP2RequestFields {
    typealias Field = (name: String, value: String)

    /// The list for `request`, `shared` being `shared(of: request)` (or one kept from an earlier
    /// request with the same origin and fields: `HTTPClient.http2RequestFields`).
    static func fields(of request: HTTPClientRequest, shared: [Field]) -> [Field] {
        var fields: [Field] = [(":method", request.method.rawValue), (":scheme", request.isSecure ? "https" : "http")]
        fields.reserveCapacity(3 + shared.count + request.extraHeaders.count)
        fields.append(shared[0])
        fields.append((":path", request.target))
        fields.append(contentsOf: shared[1...])
        append(request.extraHeaders, to: &fields)
        return fields
    }

    /// The list for `request`, made whole: what `fields(of:shared:)` gives with a kept part.
    static func fields(of request: HTTPClientRequest) -> [Field] {
        fields(of: request, shared: shared(of: request))
    }

    /// What stays the same request after request to one origin with one field list: `:authority`,
    /// then `headers` with lowered names (lowering and the interpolated `Host` value cost the
    /// HTTP/2 client more than the rest of a request's list, the figure: Benchmarks/README.md).
    static func shared(of request: HTTPClientRequest) -> [Field] {
        var fields: [Field] = [(":authority", request.hostHeader)]
        fields.reserveCapacity(1 + request.headers.count)
        append(request.headers, to: &fields)
        return fields
    }

    private static func append(_ headers: HTTPHeaders, to fields: inout [Field]) {
        for (name, value) in headers {
            let lowercased = HTTP2RequestHead.lowercasedName(name)
            if lowercased == "host" || HTTP2RequestHead.isConnectionSpecific(lowercased) { continue }
            if lowercased == "te" && value != "trailers" { continue }
            fields.append((lowercased, value))
        }
    }
}

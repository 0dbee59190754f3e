// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// An HTTP/2 response as `HTTPClient` delivers it: the same answer the HTTP/1.1 parser makes (a gzip
/// body inflated, its `Content-Length` then the inflated size, the rate-limit fields read), so
/// callers cannot tell the protocols apart.
enum HTTP2ResponseBody {
    /// Given the head's last reference (`consume`), its fields are changed in place for a gzip
    /// body: copied out of a head still held, they were copied again, then both lists destroyed.
    static func response(head: consuming HTTP2ResponseHead, body: [UInt8]) -> Result<HTTPClientResponse, HTTPClientError> {
        let status = HTTPStatus(code: head.status), rateLimit = head.rateLimit
        var response: HTTPClientResponse
        if !body.isEmpty && head.gzipCoded {
            guard let inflated = try? Gzip.decompress(body) else { return .failure(.malformed("bad gzip body")) }
            // As the HTTP/1.1 parser does for a gzip body: the fields as a list, changed.
            var headers = head.received.headers
            headers.remove(name: "content-encoding")
            headers.replaceOrAdd(name: "content-length", value: String(inflated.count))
            response = HTTPClientResponse(status: status, headers: headers, body: inflated)
        } else {
            response = HTTPClientResponse(status: status, received: (consume head).received, body: body)
        }
        response.rateLimit = rateLimit
        return .success(response)
    }
}

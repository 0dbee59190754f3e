// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// An HTTP/2 response as `HTTPClient` delivers it: the same answer the HTTP/1.1 parser makes (a gzip
/// body inflated, its `Content-Length` then the inflated size, the rate-limit fields read), so
/// callers cannot tell the protocols apart.
enum HTTP2ResponseBody {
    static func response(head: HTTP2ResponseHead, body: [UInt8]) -> Result<HTTPClientResponse, HTTPClientError> {
        var response: HTTPClientResponse
        if !body.isEmpty && head.gzipCoded {
            guard let inflated = try? Gzip.decompress(body) else { return .failure(.malformed("bad gzip body")) }
            var headers = head.fields
            headers.remove(name: "content-encoding")
            headers.replaceOrAdd(name: "content-length", value: String(inflated.count))
            response = HTTPClientResponse(status: HTTPStatus(code: head.status), headers: headers, body: inflated)
        } else {
            response = HTTPClientResponse(status: HTTPStatus(code: head.status), headers: head.fields, body: body)
        }
        response.rateLimit = head.rateLimit
        return .success(response)
    }
}

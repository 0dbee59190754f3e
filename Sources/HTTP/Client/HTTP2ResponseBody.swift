// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// An HTTP/2 response as `HTTPClient` delivers it: the same answer the HTTP/1.1 parser makes (a gzip
/// body inflated, its `Content-Length` then the inflated size), so callers cannot tell the protocols apart.
enum HTTP2ResponseBody {
    static func response(status: Int, fields: [(name: String, value: String)], body: [UInt8]) -> Result<HTTPClientResponse, HTTPClientError> {
        var headers = HTTPHeaders(fields.map { ($0.name, $0.value) })
        guard !body.isEmpty, let coding = headers["content-encoding"], HTTPHeaders.sameName(coding, "gzip") else {
            return .success(HTTPClientResponse(status: HTTPStatus(code: status), headers: headers, body: body))
        }
        guard let inflated = try? Gzip.decompress(body) else { return .failure(.malformed("bad gzip body")) }
        headers.remove(name: "content-encoding")
        headers.replaceOrAdd(name: "content-length", value: String(inflated.count))
        return .success(HTTPClientResponse(status: HTTPStatus(code: status), headers: headers, body: inflated))
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
/// A document compiled into the binary (the page, its style and script, the API
/// description): its tag is computed once, and a client that has it gets `304`.
struct EmbeddedDocument: Sendable {
    /// Five minutes: the bytes only change with a new binary, and a tab left open
    /// revalidates by `ETag` for the price of a 304.
    static let cacheControl = "max-age=300"

    let contentType: String
    let bytes: [UInt8]
    let etag: String
    let headers: HTTPHeaders

    init(contentType: String, bytes: [UInt8], headers: HTTPHeaders = HTTPHeaders()) {
        self.contentType = contentType
        self.bytes = bytes
        self.etag = EntityTag.strong(for: bytes)
        self.headers = headers
    }

    func response(to request: Request) -> Response {
        var headers = self.headers
        headers.add(name: "ETag", value: etag)
        headers.add(name: "Cache-Control", value: Self.cacheControl)
        if EntityTag.isFresh(request, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers.add(name: "Content-Type", value: contentType)
        return Response(status: .ok, headers: headers, body: .bytes(bytes))
    }
}

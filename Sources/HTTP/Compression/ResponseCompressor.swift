// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// gzip for fixed response bodies, apart from framing (as swift-nio keeps
/// `HTTPResponseCompressor` apart from its encoder): text-like bodies of at least
/// `minimumBytes` are compressed when the request's `Accept-Encoding` allows gzip.
/// Streamed bodies (SSE above all) are never compressed.
package struct ResponseCompressor: Sendable {
    /// Below this a gzip header and trailer (18 bytes) eat most of the saving.
    package let minimumBytes: Int

    package init(minimumBytes: Int) {
        self.minimumBytes = minimumBytes
    }

    /// Compresses `body` in place when worth it, adding `Vary: Accept-Encoding` to every
    /// compressible response (its bytes depend on that header) and `Content-Encoding: gzip` when applied,
    /// with the `ETag` of the compressed bytes (`EntityTag.gzipVariant`).
    package func compress(_ body: inout [UInt8], headers: inout HTTPHeaders, status: HTTPStatus, acceptEncoding: String?) {
        guard status.allowsBody,
              body.count >= minimumBytes,
              !headers.contains("Content-Encoding"),
              ContentCoding.isCompressible(contentType: headers["Content-Type"])
        else { return }
        headers.add(name: "Vary", value: "Accept-Encoding")
        if ContentCoding.acceptsGzip(acceptEncoding), let compressed = try? Gzip.compress(body) {
            body = compressed
            headers.add(name: "Content-Encoding", value: "gzip")
            if let etag = headers["ETag"] {
                headers.replaceOrAdd(name: "ETag", value: EntityTag.gzipVariant(of: etag))
            }
        }
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Puts a handler's response on the wire for one request: stamps `X-Request-ID`,
/// compresses fixed bodies (`ResponseCompressor`), decides the framing —
/// `Content-Length` for a fixed body, chunked for an HTTP/1.1 stream, until close
/// for an HTTP/1.0 one, nothing for HEAD and 1xx/204/304 — and encodes head and chunks.
package struct ResponseWriter: Sendable {
    /// How a streamed body's pieces are framed.
    package enum StreamFraming: Sendable {
        /// HEAD, or a status without a body: the head is all.
        case none
        case chunked
        /// HTTP/1.0: raw bytes, the end of the body is the end of the connection.
        case untilClose
    }

    let serverName: String?
    let compressor: ResponseCompressor

    package init(serverName: String?, compressor: ResponseCompressor) {
        self.serverName = serverName
        self.compressor = compressor
    }

    /// A fixed-body response, head and body in one buffer so both leave in one write;
    /// `bodyBytes` is what was sent after the head (compressed size, 0 for HEAD).
    package func fixed(_ response: Response, body: [UInt8], for request: Request, keepAlive: Bool) -> (bytes: [UInt8], bodyBytes: Int) {
        var out: [UInt8] = []
        let bodyBytes = fixed(response, body: body, for: request, keepAlive: keepAlive, into: &out)
        return (out, bodyBytes)
    }

    /// The same appended to `out` (a buffer the caller reuses, so a small answer costs no
    /// allocation of its own), with `date` as the `Date` value; returns `bodyBytes`.
    package func fixed(
        _ response: Response, body: [UInt8], for request: Request, keepAlive: Bool, date: [UInt8] = HTTPDate.current,
        into out: inout [UInt8]
    ) -> Int {
        let allowsBody = response.status.allowsBody
        var headers = response.headers
        var body = body
        compress(&body, headers: &headers, of: response, for: request)
        // 256 bytes for the status line and the fields added here (Date, Server, Content-Length,
        // X-Request-ID); the handler's own fields counted, so the buffer is grown once: a reserve
        // short of a head with several handler fields doubled the buffer while the body was appended.
        let handlerFields = headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        out.reserveCapacity(out.count + 256 + handlerFields + body.count)
        ResponseHeadEncoder.encode(
            status: response.status, version: request.version, headers: headers,
            framing: allowsBody ? .contentLength(body.count) : .none, keepAlive: keepAlive, serverName: serverName,
            requestID: request.id, date: date, into: &out
        )
        guard allowsBody && request.method != .head else { return 0 }
        out.append(contentsOf: body)
        return body.count
    }

    /// The one compression rule of a fixed body, whichever protocol carries it (`ResponseCompressor`):
    /// `body` and `headers` (the response's, with `Vary`, `Content-Encoding`, `ETag`) as they are sent.
    @inline(__always)
    package func compress(_ body: inout [UInt8], headers: inout HTTPHeaders, of response: Response, for request: Request) {
        // The size test first: most answers are too small, and skip the header lookups.
        guard body.count >= compressor.minimumBytes else { return }
        compressor.compress(&body, headers: &headers, status: response.status, acceptEncoding: request.headers["Accept-Encoding"])
    }

    /// The head of a streamed response and the framing of its pieces. An HTTP/1.0
    /// client can only learn where the body ends from the close, so `keepAlive` turns false.
    package func streamHead(
        _ response: Response, for request: Request, keepAlive: inout Bool, date: [UInt8] = HTTPDate.current
    ) -> (head: [UInt8], framing: StreamFraming) {
        let chunked = request.version != .http1_0
        if !chunked { keepAlive = false }
        let allowsBody = response.status.allowsBody
        var out: [UInt8] = []
        ResponseHeadEncoder.encode(
            status: response.status, version: request.version, headers: response.headers,
            framing: !allowsBody ? .none : (chunked ? .chunked : .untilClose), keepAlive: keepAlive, serverName: serverName,
            requestID: request.id, date: date, into: &out
        )
        guard allowsBody && request.method != .head else { return (out, .none) }
        return (out, chunked ? .chunked : .untilClose)
    }

    /// One piece of a streamed body, framed.
    package static func piece(_ bytes: [UInt8], framing: StreamFraming) -> [UInt8] {
        framing == .chunked ? ChunkedCodec.chunk(bytes) : bytes
    }

    /// What ends a streamed body on the wire, if anything.
    package static func end(framing: StreamFraming) -> [UInt8]? {
        framing == .chunked ? ChunkedCodec.lastChunk : nil
    }

    /// The one answer for requests that never reach a handler — unparseable, too slow, or
    /// over the connection limit: a problem+json with `Connection: close`, and `Retry-After`
    /// when the refusal is one of load that passes (RFC 9110 §10.2.3).
    package func closingProblem(_ status: HTTPStatus, detail: String, retryAfterSeconds: Int? = nil) -> [UInt8] {
        var problem = Response.problem(status: status, detail: detail)
        // 414 is cacheable by default (RFC 9110 §15.5.15); none of these answers should be stored.
        problem.headers.add(name: "Cache-Control", value: "no-store")
        if let retryAfterSeconds { problem.headers.add(name: "Retry-After", value: String(retryAfterSeconds)) }
        let body = problem.bodyBytes ?? []
        var out: [UInt8] = []
        ResponseHeadEncoder.encode(
            status: status, version: .http1_1, headers: problem.headers,
            framing: .contentLength(body.count), keepAlive: false, serverName: serverName, into: &out
        )
        out.append(contentsOf: body)
        return out
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// What a response carries after its head: a fixed byte buffer, or a
/// stream of chunks the server watches and writes as they arrive
/// (chunked for HTTP/1.1, until close for HTTP/1.0).
public enum ResponseBody: Sendable {
    /// A body known in full; sent with `Content-Length`.
    case bytes([UInt8])
    /// A body written chunk by chunk as the stream emits; the response ends when the stream completes.
    case stream(DataStream<[UInt8]>)
}

/// An HTTP response as handlers produce it.
public struct Response: Sendable {
    /// The response's status.
    public var status: HTTPStatus
    /// The fields the handler sets; the server adds `Date`, `Content-Length` or the framing, and `X-Request-ID`.
    public var headers: HTTPHeaders
    /// The body: bytes, or a stream of chunks.
    public var body: ResponseBody
    /// Written as a last chunk when the server shuts down gracefully while this
    /// response is still streaming (e.g. a final SSE event), before the stream ends.
    public var shutdownTrailer: [UInt8]?

    /// A response with these parts; the defaults are an empty `200 OK`.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: ResponseBody = .bytes([]), shutdownTrailer: [UInt8]? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.shutdownTrailer = shutdownTrailer
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .bytes(Array(text.utf8)))
    }

    /// An `application/json` response from already-encoded JSON.
    public static func json(_ json: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "application/json"], body: .bytes(json))
    }

    /// An `application/json` response from JSON text.
    public static func json(_ json: String, status: HTTPStatus = .ok) -> Response {
        .json(Array(json.utf8), status: status)
    }

    /// A streamed response; its chunks are written as the stream emits them.
    public static func stream(_ chunks: DataStream<[UInt8]>, contentType: String, status: HTTPStatus = .ok, shutdownTrailer: [UInt8]? = nil) -> Response {
        Response(status: status, headers: ["Content-Type": contentType], body: .stream(chunks), shutdownTrailer: shutdownTrailer)
    }

    /// True for Server-Sent Events, which are never compressed or buffered.
    public var isEventStream: Bool {
        headers["Content-Type"].map { $0.lowercased().hasPrefix("text/event-stream") } ?? false
    }

    /// True when the body is a stream.
    public var isStreaming: Bool {
        if case .stream = body { return true }
        return false
    }

    /// The fixed body, or nil for a streamed one.
    public var bodyBytes: [UInt8]? {
        if case .bytes(let bytes) = body { return bytes }
        return nil
    }
}

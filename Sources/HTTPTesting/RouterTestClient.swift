// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Streams

/// Runs a `Router` in process, with no socket: a route's unit test sends a request and reads the
/// answer the router gives — middlewares, gates, 404/405 problems, the generic 500 of a failed
/// handler (see `HandlerFailure`) — as the server would hand it to the wire. What only the wire
/// does is not here: compression, `HEAD` without a body, the request id a server assigns (give
/// one in `headers`' `X-Request-ID` or `requestID`), timeouts.
///
///     var router = Router()
///     router.get("/hello") { _ in .just(.text("hello")) }
///     let response = try await RouterTestClient(router).execute(.get, "/hello")
///     XCTAssertEqual(response.bodyText, "hello")
public struct RouterTestClient: Sendable {
    /// The router the requests go to, with its gates and middlewares.
    public let router: Router
    /// Sees what the server's observer would: the handler failures behind a generic 500.
    public var observer: HTTPServerObserver

    /// A client of `router`; `observer` sees the handler failures.
    public init(_ router: Router, observer: HTTPServerObserver = HTTPServerObserver()) {
        self.router = router
        self.observer = observer
    }

    /// The router's answer to one request. A streamed body (SSE, a chunked answer) is handed back
    /// unread as `TestResponse.streamedBody`, to read as far as the test wants (`take`, a
    /// `TestScheduler`) or to its end with `readBody()`.
    /// - Parameters:
    ///   - method: the request's method.
    ///   - target: the path with its query, e.g. `/users?limit=3`.
    ///   - headers: the request's header fields.
    ///   - body: the request's whole body.
    ///   - requestID: the request's id, as the server would have set it.
    ///   - remoteAddress: the client's address, as the server would have set it.
    public func execute(
        _ method: HTTPMethod, _ target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        requestID: String = "test-request", remoteAddress: String = "127.0.0.1"
    ) async throws -> TestResponse {
        let request = Request(method: method, target: target, headers: headers, body: body, id: requestID, remoteAddress: remoteAddress)
        let first = try await router.handle(request).materialize().first() ?? .end
        let response = request.answer(to: first, observer: observer)
        switch response.body {
        case .bytes(let bytes):
            return TestResponse(status: response.status, headers: response.headers, body: bytes, streamedBody: nil)
        case .stream(let chunks):
            return TestResponse(status: response.status, headers: response.headers, body: [], streamedBody: chunks)
        }
    }
}

/// An answer as `RouterTestClient` read it.
public struct TestResponse: Sendable {
    /// The answer's status.
    public var status: HTTPStatus
    /// The answer's fields, as the handler and middlewares set them (the server's own `Date`, framing and `X-Request-ID` are not there).
    public var headers: HTTPHeaders
    /// A fixed body; empty when the body is streamed.
    public var body: [UInt8]
    /// A streamed body, not yet read; nil for a fixed one.
    public var streamedBody: DataStream<[UInt8]>?

    /// The fixed body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The whole body: the fixed one, or the streamed one read to its end (never returns for a
    /// stream that never ends, such as an SSE feed: read those with `streamedBody`).
    public func readBody() async throws -> [UInt8] {
        guard let streamedBody else { return body }
        return try await streamedBody.array().flatMap { $0 }
    }
}

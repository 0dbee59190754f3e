// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

// # HTTP
//
// An HTTP/1.1 and HTTP/2 server and an HTTP/1.1 client on NetCore's
// non-blocking sockets and event loops (no thread per connection, no SwiftNIO), where a handler is a
// `Streams` pipeline: `Request` → `DataStream<Response>`, and a streamed body
// or SSE feed is itself a `DataStream<[UInt8]>` the server watches.
// Disposal is the cancellation path: a client that goes away disposes the
// handler's subscription, which cancels whatever upstream work it started.
//
// ## Pieces, one folder each
//
// - `Core/`: `Request`, `Response`, `HTTPHeaders`, `HTTPStatus`, problem+json
//   (`Response.problem`, `HTTPError`, `HTTPResponseError`), the chunked codec.
// - `Parsing/`: the incremental request parser (limits checked as bytes
//   arrive; anything ambiguous is a 400 and a close: no request smuggling)
//   and the client's response parser.
// - `Server/`: `HTTPServer` (accept, connection limit, graceful shutdown) and
//   the per-connection state machine (keep-alive, in-order pipelining,
//   100-continue, HEAD, HTTP/1.0, timeouts, slow-client policy).
// - `HTTP2/`: HTTP/2 on the same server (h2 by ALPN, h2c by preface): frames,
//   HPACK, stream states and flow control, the connection.
// - `Routing/`: `Router` (path parameters, 404/405, middlewares) and
//   `QueryParameters`, the validated reader every route uses.
// - `Writing/` and `Compression/`: framing, and gzip kept apart from it.
// - `SSE/`: `ServerSentEvent`, heartbeats, `SSEBroadcaster` with a bounded
//   replay buffer for `Last-Event-ID`.
// - `EventLoop/`: `EventLoopScheduler`, a `Streams` scheduler on a
//   connection's own loop (`Request.loopScheduler`).
// - `Client/`: `HTTPClient`, keep-alive connections capped per origin, TLS
//   with verification, gzip, connect timeout, cancellation on dispose, and
//   `ConnectTarget` (a name in URLs connected elsewhere, as curl's `--connect-to`).
//
// ```swift
// var router = Router()
// router.get("/hello") { _ in .just(.text("hello")) }
// let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), router: router)
// let port = try server.start()
// let answer = try await HTTPClient().send(HTTPClientRequest(url: "http://127.0.0.1:\(port)/hello")!).first()
// await server.shutdown(deadline: .seconds(5))
// ```

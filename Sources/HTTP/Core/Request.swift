// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// An HTTP request as routes, middleware and handlers see it, whichever protocol brought it:
/// HTTP/1.1 through `init(head:…)`, HTTP/2 through the protocol-neutral initialiser.
///
/// Its own type rather than swift-http-types' `HTTPRequest` (weighed as the neutral type): carrying
/// one means a validated, lower-cased name and a checked value per field and a pseudo-header
/// storage object per request, far past the budget of a small request's whole exchange (figures:
/// the HTTP ledger in `Benchmarks/README.md`). An adapter to it belongs at the edge that needs it
/// (an OpenAPI transport), not on every request.
public struct Request: Sendable {
    /// Every field lives in one shared box, copied when a holder of a shared box changes it
    /// (the rule of `Array` and of NIO's `HTTPRequestHead`): a request passes through the
    /// router, middleware closures, its handler and the answer's bookkeeping, and each copy of
    /// sixteen fields retained and released them all, where a copy of the box is one retain.
    private var storage: RequestStorage

    /// The request's method.
    public var method: HTTPMethod {
        get { storage.method }
        set { unique().method = newValue }
    }
    /// The scheme of the target URI (RFC 9110 §7.1): `http` or `https` as the HTTP/1.1
    /// connection is, or HTTP/2's `:scheme`.
    public var scheme: String {
        get { storage.scheme }
        set { unique().scheme = newValue }
    }
    /// The request target exactly as sent, e.g. `/books?since=5`.
    public var target: String {
        get { storage.target }
        set { unique().target = newValue }
    }
    /// The percent-decoded path component of the target, e.g. `/books`.
    public var path: String {
        get { storage.path }
        set { unique().path = newValue }
    }
    /// The target's query, percent-decoded, e.g. `since=5`.
    ///
    /// Parsed when read, not when the request arrives: most routes never read it, so a request
    /// pays nothing for a query nobody asks about. A handler that reads it several times may
    /// keep the value.
    public var query: QueryItems {
        get { storage.parsedQuery ?? QueryItems(parsing: storage.queryText) }
        set { unique().parsedQuery = newValue }
    }
    /// The protocol version the request arrived with (`.http2` for an HTTP/2 stream).
    public var version: HTTPVersion {
        get { storage.version }
        set { unique().version = newValue }
    }
    /// The header fields in order (an HTTP/2 request's `:authority` as `Host`).
    public var headers: HTTPHeaders {
        get { storage.headers }
        _modify { yield &unique().headers }
    }
    /// The whole body, read before the handler runs (bounded by ``HTTPLimits/maxBodyBytes``).
    public var body: [UInt8] {
        get { storage.body }
        _modify { yield &unique().body }
    }
    /// Values captured by `{name}` segments of the matched route.
    public var pathParameters: [String: String] {
        get { storage.pathParameters }
        _modify { yield &unique().pathParameters }
    }
    /// The matched route's pattern, e.g. `/books/{id}`; nil when no route matched.
    public var routePattern: String? {
        get { storage.routePattern }
        set { unique().routePattern = newValue }
    }
    /// Unique per request within this process; echoed as `X-Request-ID`.
    public var id: String {
        get { storage.id }
        set { unique().id = newValue }
    }
    /// The peer's address, e.g. `127.0.0.1:53122` or `[::1]:53122`.
    public var remoteAddress: String {
        get { storage.remoteAddress }
        set { unique().remoteAddress = newValue }
    }
    /// The peer's IP address as the server accepted it, for per-client work that would otherwise
    /// read `remoteAddress` back on every request; nil where a request was made without a socket
    /// (then `remoteAddress`'s text is all there is).
    package var peerAddress: IPAddress? {
        get { storage.peerAddress }
        set { unique().peerAddress = newValue }
    }
    /// Runs timed work on the event loop that serves this request's connection, so a
    /// timer-driven response is written with no thread hop; nil outside a server.
    public var loopScheduler: EventLoopScheduler? {
        get { storage.loopScheduler }
        set { unique().loopScheduler = newValue }
    }
    /// The ids of the request's SERVER span when the server traces (for logs and events that
    /// name the trace); nil otherwise. Its context is bound while the route runs (`ServiceContext.current`),
    /// and carried by the pipeline's subscriptions unless the request carries it (`unrecordedTrace`).
    public var trace: TraceIdentity? {
        get { storage.trace }
        set { unique().trace = newValue }
    }
    /// The context of a request whose trace is not recorded, carried here rather than bound
    /// (see `UnrecordedTrace`); nil for a sampled or untraced request.
    public var unrecordedTrace: UnrecordedTrace? {
        get { storage.unrecordedTrace }
        set { unique().unrecordedTrace = newValue }
    }

    /// Which box holds the fields: the same for copies until one of them changes a field.
    var storageIdentity: ObjectIdentifier { ObjectIdentifier(storage) }

    /// The box, copied first when another request shares it.
    private mutating func unique() -> RequestStorage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// A request with an HTTP/1.x target, e.g. for a test or a router called directly.
    public init(
        method: HTTPMethod,
        target: String,
        version: HTTPVersion = .http1_1,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        id: String = "",
        remoteAddress: String = ""
    ) {
        self.init(
            method: method, scheme: "http", target: ParsedTarget(target), version: version, headers: headers,
            body: body, id: id, remoteAddress: remoteAddress, loopScheduler: nil)
    }

    /// A request from the parts every HTTP version carries, named as HTTP/2's pseudo-header
    /// fields name them (RFC 9113 §8.3.1): this is the initialiser an HTTP/2 stream calls once
    /// its header block and body are complete, so routes, middleware and handlers see one
    /// request type whichever protocol brought it.
    ///
    /// - Parameters:
    ///   - method: `:method`.
    ///   - scheme: `:scheme`, e.g. `https`.
    ///   - authority: `:authority`, e.g. `example.com:8443`. When the fields have no `Host`,
    ///     one is added with this value (RFC 9113 §8.3.1), so a handler reads the authority
    ///     where an HTTP/1.1 request puts it, and `authority` returns it. When they have one,
    ///     it is kept as sent: checking that the two agree is the protocol's validation.
    ///   - path: `:path`, the path with its query as sent, e.g. `/books?since=5` (`*` for a
    ///     server-wide `OPTIONS`); split into `path` and `query` as an HTTP/1.1 target is.
    ///   - headerFields: the regular fields in order, without pseudo-header fields.
    ///   - body: the whole body (the DATA frames' payloads).
    ///   - version: the protocol's version, e.g. `HTTPVersion(major: 2, minor: 0)`.
    ///   - id: the request id (`X-Request-ID` when sane, see `RequestID`).
    ///   - remoteAddress: the peer's address.
    ///   - loopScheduler: the event loop of the connection that carries the request.
    public init(
        method: HTTPMethod,
        scheme: String,
        authority: String?,
        path: String,
        headerFields: HTTPHeaders,
        body: [UInt8],
        version: HTTPVersion,
        id: String = "",
        remoteAddress: String = "",
        loopScheduler: EventLoopScheduler? = nil
    ) {
        var headers = headerFields
        if let authority, !headers.contains("Host") { headers.add(name: "Host", value: authority) }
        self.init(
            method: method, scheme: scheme, target: ParsedTarget(path), version: version, headers: headers,
            body: body, id: id, remoteAddress: remoteAddress, loopScheduler: loopScheduler)
    }

    /// A request as the HTTP/1.1 parser read it: its target is split already. Inlined with the
    /// initialiser it delegates to, so the head's parts move into the request instead of being
    /// copied out of a head destroyed after.
    @inline(__always)
    init(
        head: consuming RequestHead, scheme: String, body: [UInt8], id: String, remoteAddress: String, peerAddress: IPAddress?,
        loopScheduler: EventLoopScheduler?
    ) {
        self.init(
            method: head.method, scheme: scheme, target: head.target, version: head.version, headers: head.headers,
            body: body, id: id, remoteAddress: remoteAddress, peerAddress: peerAddress, loopScheduler: loopScheduler)
    }

    /// Every initialiser ends here: the path and query are the parsed target's.
    @inline(__always)
    private init(
        method: consuming HTTPMethod, scheme: consuming String, target: consuming ParsedTarget, version: HTTPVersion,
        headers: consuming HTTPHeaders, body: consuming [UInt8], id: consuming String, remoteAddress: consuming String,
        peerAddress: IPAddress? = nil, loopScheduler: consuming EventLoopScheduler?
    ) {
        storage = RequestStorage(
            method: method, scheme: scheme, target: target.text, path: target.path, queryText: target.query,
            version: version, headers: headers, body: body, id: id, remoteAddress: remoteAddress,
            peerAddress: peerAddress, loopScheduler: loopScheduler)
    }

    /// The authority the client asked for: the `Host` field (an HTTP/2 request's `:authority`
    /// is there too, see the neutral initialiser).
    public var authority: String? { headers["Host"] }

    /// Whether the connection stays open after this request's response
    /// (HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`):
    /// `ConnectionOptions.persists(in:)`, the rule the server applies.
    public var wantsKeepAlive: Bool {
        ConnectionOptions(of: headers).persists(in: version)
    }

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

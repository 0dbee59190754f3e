// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Streams

/// A handler maps a request to a stream whose first element is the response.
public typealias RequestHandler = @Sendable (Request) -> DataStream<Response>

/// A route table: method + path pattern (`/books/{id}/cover`) → handler.
///
/// Literal segments beat `{parameter}` segments, so `/books/new` wins over
/// `/books/{id}` whatever the registration order. A `GET` route also answers
/// `HEAD`. Unknown paths resolve to 404, known paths with another method to 405
/// with the allowed methods.
public struct Router: Sendable {
    private var routes: [Route] = []
    /// Each route's handler inside the middlewares, composed when routes or middlewares are
    /// added rather than per request (no closure contexts allocated per request).
    private var chained: [RequestHandler] = []
    /// The routes without `{parameter}` segments, by their path (`/a/b`), in registration order:
    /// a request for such a path is answered without splitting it or matching every route.
    private var literalRoutes: [String: [Int]] = [:]
    private var fallback: RequestHandler?
    private var chainedFallback: RequestHandler?
    /// Outermost first: the first added sees the request first and the response last.
    private var middlewares: [any RouterMiddleware] = []
    /// Asked in order before the middlewares; the first refusal answers.
    private var gates: [any RouterGate] = []

    /// An empty table: every request resolves to 404 until routes are added.
    public init() {}

    /// A router that sends every request to `handler` (route pattern `*`).
    public init(handler: @escaping RequestHandler) {
        fallback = handler
        chainedFallback = handler
    }

    /// Routes `method` requests for paths matching `pattern` to `handler`.
    ///
    /// `pattern` is a path of literal segments and `{name}` segments; a `{name}` segment matches any one
    /// segment, and the handler reads it from ``Request/pathParameters``. The request's
    /// ``Request/routePattern`` is `pattern` (the metrics' `route` label).
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping RequestHandler) {
        let route = Route(method: method, pattern: pattern, handler: handler)
        if let path = route.literalPath { literalRoutes[path, default: []].append(routes.count) }
        routes.append(route)
        chained.append(chain(handler))
    }

    /// Runs `middleware` around every request, inside the middlewares added before it.
    public mutating func add(middleware: some RouterMiddleware) {
        middlewares.append(middleware)
        chained = routes.map { chain($0.handler) }
        chainedFallback = fallback.map { chain($0) }
    }

    /// Asks `gate` about every request before the middlewares and the handler (see `RouterGate`).
    public mutating func add(gate: some RouterGate) {
        gates.append(gate)
    }

    /// Routes `GET` (and so `HEAD`) requests for `pattern` to `handler`.
    public mutating func get(_ pattern: String, _ handler: @escaping RequestHandler) { add(.get, pattern, handler) }
    /// Routes `POST` requests for `pattern` to `handler`.
    public mutating func post(_ pattern: String, _ handler: @escaping RequestHandler) { add(.post, pattern, handler) }
    /// Routes `PUT` requests for `pattern` to `handler`.
    public mutating func put(_ pattern: String, _ handler: @escaping RequestHandler) { add(.put, pattern, handler) }
    /// Routes `DELETE` requests for `pattern` to `handler`.
    public mutating func delete(_ pattern: String, _ handler: @escaping RequestHandler) { add(.delete, pattern, handler) }

    /// The outcome of looking a request up.
    public enum Resolution: Sendable {
        /// A route matched: its handler (without the middlewares), its pattern and the values of its `{name}` segments.
        case matched(RequestHandler, pattern: String, parameters: [String: String])
        /// No route has this path: the server answers 404.
        case notFound
        /// Routes have this path, but none for this method: the server answers 405 with `Allow`.
        case methodNotAllowed(allowed: [HTTPMethod])
    }

    /// The route a request for `path` with `method` would take, without running anything: for a
    /// test of the table itself. To see a route's answer, with the gates and middlewares, run the
    /// router in process with `HTTPTesting`'s `RouterTestClient`.
    public func resolve(method: HTTPMethod, path: String) -> Resolution {
        switch lookUp(method: method, path: path) {
        case .route(let index, let parameters): .matched(routes[index].handler, pattern: routes[index].pattern, parameters: parameters)
        case .fallback: .matched(fallback!, pattern: "*", parameters: [:])
        case .notFound: .notFound
        case .methodNotAllowed(let allowed): .methodNotAllowed(allowed: allowed)
        }
    }

    private enum LookUp {
        case route(Int, parameters: [String: String])
        case fallback
        case notFound
        case methodNotAllowed([HTTPMethod])
    }

    private func lookUp(method: HTTPMethod, path: String) -> LookUp {
        // A router of one handler (a fallback only) has nothing to look up.
        if routes.isEmpty { return fallback == nil ? .notFound : .fallback }
        // A literal route matching the whole path scores above any route with a parameter
        // (see `Route.literalPath`); among equals the first registered wins, as below.
        if let candidates = literalRoutes[path] {
            for index in candidates where routes[index].answers(method) { return .route(index, parameters: [:]) }
        }
        // The path's segments as byte ranges, compared as bytes: split into `Substring`s, compared
        // as strings, with a dictionary of parameters built for every candidate, a look-up made
        // strings and dictionaries for routes that lost; the parameters are now made for the
        // winning route only.
        // Only what the closures read is captured: capturing `self` copied the whole router
        // (six references retained and released) several times per look-up.
        let routes = routes, hasFallback = fallback != nil
        var path = path
        return path.withUTF8 { bytes in
            PathSegments.withSegments(of: bytes) { segments in
                // Routes read in place (a copy of each retained and released its five references).
                var best: (index: Int, score: Int)?
                var anyMatched = false
                for index in routes.indices {
                    guard let score = routes[index].score(segments, in: bytes) else { continue }
                    anyMatched = true
                    if routes[index].answers(method) && (best == nil || score > best!.score) {
                        best = (index, score)
                    }
                }
                if let best { return .route(best.index, parameters: routes[best.index].parameters(segments, in: bytes)) }
                if hasFallback { return .fallback }
                guard anyMatched else { return .notFound }
                // A 405 only: the methods of the routes the path matched, in registration order.
                var allowed: [HTTPMethod] = []
                for index in routes.indices where routes[index].score(segments, in: bytes) != nil {
                    let routeMethod = routes[index].method
                    if !allowed.contains(routeMethod) { allowed.append(routeMethod) }
                    if routeMethod == .get && !allowed.contains(.head) { allowed.append(.head) }
                }
                return .methodNotAllowed(allowed)
            }
        }
    }

    /// Resolves and runs `request`, answering 404/405 problems itself.
    public func handle(_ request: Request) -> DataStream<Response> {
        var request = request
        return route(&request)
    }

    /// Resolves `request` once and runs it through the middlewares and then its handler
    /// (or the 404/405 problem); a matched route's pattern and path parameters are filled
    /// into `request`.
    package func route(_ request: inout Request) -> DataStream<Response> {
        switch lookUp(method: request.method, path: request.path) {
        case .route(let index, let parameters):
            request.routePattern = routes[index].pattern
            if !parameters.isEmpty { request.pathParameters = parameters }
            return refused(request) ?? chained[index](request)
        case .fallback:
            request.routePattern = "*"
            return refused(request) ?? chainedFallback!(request)
        case .notFound:
            if let refusal = refused(request) { return refusal }
            return chain { request in
                DataStream.just(.problem(status: .notFound, detail: "No route for \(request.path)", instance: request.path))
            }(request)
        case .methodNotAllowed(let allowed):
            if let refusal = refused(request) { return refusal }
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            return chain { request in
                DataStream.just(.problem(
                    status: .methodNotAllowed,
                    detail: "\(request.method) is not allowed on \(request.path); allowed: \(allow)",
                    instance: request.path,
                    headers: ["Allow": allow]
                ))
            }(request)
        }
    }

    /// The first gate's refusal of `request`, sent out through the middlewares; nil when every gate lets it by.
    @inline(__always)
    private func refused(_ request: Request) -> DataStream<Response>? {
        guard !gates.isEmpty else { return nil }
        // Asked where they lie: `for gate in gates` copied each gate (retaining what it holds) per request.
        let refusal = gates.withUnsafeBufferPointer { gates -> Response? in
            for index in gates.indices {
                if let refusal = gates[index].refusal(for: request) { return refusal }
            }
            return nil
        }
        return refusal.map { refusal in chain { _ in .just(refusal) }(request) }
    }

    /// `handler` inside every middleware, the first added outermost.
    private func chain(_ handler: @escaping RequestHandler) -> RequestHandler {
        middlewares.reversed().reduce(handler) { next, middleware in
            { request in middleware.handle(request, next: next) }
        }
    }
}

/// One registered route, its pattern split once into segments.
struct Route: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    /// Each ASCII literal segment's bytes, for comparing path bytes; nil for a parameter, and for a
    /// non-ASCII literal, which is compared as a string.
    private let asciiLiteralBytes: [[UInt8]?]

    let method: HTTPMethod
    let pattern: String
    let segments: [Segment]
    let handler: RequestHandler

    init(method: HTTPMethod, pattern: String, handler: @escaping RequestHandler) {
        self.method = method
        self.pattern = pattern
        self.handler = handler
        segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map { part in
            if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            return .literal(String(part))
        }
        asciiLiteralBytes = segments.map { segment in
            guard case .literal(let literal) = segment, literal.utf8.allSatisfy({ $0 < 128 }) else { return nil }
            return Array(literal.utf8)
        }
    }

    /// Whether this route answers `method` (a `GET` route answers `HEAD` too).
    func answers(_ method: HTTPMethod) -> Bool {
        self.method == method || (method == .head && self.method == .get)
    }

    /// `/a/b` for a pattern of literal segments only, which then matches exactly that path with
    /// the highest score a route of its length can have (every segment's bit set); nil for a
    /// pattern with parameters, or one so long that its scores' bits coincide (past 30 segments).
    var literalPath: String? {
        guard segments.count <= 30 else { return nil }
        var path = ""
        for segment in segments {
            guard case .literal(let literal) = segment else { return nil }
            path += "/" + literal
        }
        return path.isEmpty ? "/" : path
    }

    /// A specificity score (earlier literal segments score higher) when the path's `segments`
    /// (ranges of `path`'s bytes) match this pattern, or nil. A literal matches its exact bytes:
    /// the path is decoded, and the patterns are ASCII-spelled names, which no other byte
    /// sequence is canonically equivalent to (a non-ASCII literal is compared as a string).
    func score(_ segments: UnsafeBufferPointer<Range<Int>>, in path: UnsafeBufferPointer<UInt8>) -> Int? {
        guard segments.count == self.segments.count else { return nil }
        var score = 0
        for index in segments.indices {
            guard case .literal(let literal) = self.segments[index] else { continue }
            let part = UnsafeBufferPointer(rebasing: path[segments[index]])
            if let expected = asciiLiteralBytes[index] {
                guard expected.count == part.count,
                      expected.withUnsafeBufferPointer({ memcmp($0.baseAddress!, part.baseAddress!, part.count) == 0 })
                else { return nil }
            } else {
                guard String(decoding: part, as: UTF8.self) == literal else { return nil }
            }
            score |= 1 << max(0, 30 - index)
        }
        return score
    }

    /// The values of the `{name}` segments, for a path `score` matched.
    func parameters(_ segments: UnsafeBufferPointer<Range<Int>>, in path: UnsafeBufferPointer<UInt8>) -> [String: String] {
        var parameters: [String: String] = [:]
        for index in segments.indices {
            if case .parameter(let name) = self.segments[index] {
                parameters[name] = String(decoding: UnsafeBufferPointer(rebasing: path[segments[index]]), as: UTF8.self)
            }
        }
        return parameters
    }
}

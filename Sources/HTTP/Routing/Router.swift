import Streams

/// A handler maps a request to a stream whose first element is the response.
public typealias RequestHandler = @Sendable (Request) -> DataStream<Response>

/// A route table: method + path pattern (`/users/{login}/avatar`) → handler.
///
/// Literal segments beat `{parameter}` segments, so `/users/stream` wins over
/// `/users/{login}` whatever the registration order. A `GET` route also answers
/// `HEAD`. Unknown paths resolve to 404, known paths with another method to 405
/// with the allowed methods.
public struct Router: Sendable {
    private var routes: [Route] = []
    private var fallback: RequestHandler?
    /// Outermost first: the first added sees the request first and the response last.
    private var middlewares: [any RouterMiddleware] = []

    public init() {}

    /// A router that sends every request to `handler` (route pattern `*`).
    public init(handler: @escaping RequestHandler) {
        fallback = handler
    }

    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping RequestHandler) {
        routes.append(Route(method: method, pattern: pattern, handler: handler))
    }

    /// Runs `middleware` around every request, inside the middlewares added before it.
    public mutating func add(middleware: some RouterMiddleware) {
        middlewares.append(middleware)
    }

    public mutating func get(_ pattern: String, _ handler: @escaping RequestHandler) { add(.get, pattern, handler) }
    public mutating func post(_ pattern: String, _ handler: @escaping RequestHandler) { add(.post, pattern, handler) }
    public mutating func put(_ pattern: String, _ handler: @escaping RequestHandler) { add(.put, pattern, handler) }
    public mutating func delete(_ pattern: String, _ handler: @escaping RequestHandler) { add(.delete, pattern, handler) }

    /// The outcome of looking a request up.
    public enum Resolution: Sendable {
        case matched(RequestHandler, pattern: String, parameters: [String: String])
        case notFound
        case methodNotAllowed(allowed: [HTTPMethod])
    }

    public func resolve(method: HTTPMethod, path: String) -> Resolution {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        var best: (route: Route, parameters: [String: String], score: Int)?
        var allowed: [HTTPMethod] = []
        for route in routes {
            guard let (parameters, score) = route.match(segments) else { continue }
            let answers = route.method == method || (method == .head && route.method == .get)
            if !allowed.contains(route.method) { allowed.append(route.method) }
            if route.method == .get && !allowed.contains(.head) { allowed.append(.head) }
            if answers && (best == nil || score > best!.score) {
                best = (route, parameters, score)
            }
        }
        if let best {
            return .matched(best.route.handler, pattern: best.route.pattern, parameters: best.parameters)
        }
        if let fallback {
            return .matched(fallback, pattern: "*", parameters: [:])
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed)
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
        let handler: RequestHandler
        switch resolve(method: request.method, path: request.path) {
        case .matched(let matched, let pattern, let parameters):
            request.routePattern = pattern
            request.pathParameters = parameters
            handler = matched
        case .notFound:
            handler = { request in
                DataStream.just(.problem(status: .notFound, detail: "No route for \(request.path)", instance: request.path))
            }
        case .methodNotAllowed(let allowed):
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            handler = { request in
                DataStream.just(.problem(
                    status: .methodNotAllowed,
                    detail: "\(request.method) is not allowed on \(request.path); allowed: \(allow)",
                    instance: request.path,
                    headers: ["Allow": allow]
                ))
            }
        }
        let chain = middlewares.reversed().reduce(handler) { next, middleware in
            { request in middleware.handle(request, next: next) }
        }
        return chain(request)
    }
}

/// One registered route, its pattern split once into segments.
struct Route: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

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
    }

    /// Captured parameters and a specificity score (earlier literal segments score higher), or nil.
    func match(_ path: [Substring]) -> ([String: String], Int)? {
        guard path.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        var score = 0
        for (index, (segment, part)) in zip(segments, path).enumerated() {
            switch segment {
            case .literal(let literal):
                guard part == literal else { return nil }
                score |= 1 << max(0, 30 - index)
            case .parameter(let name):
                parameters[name] = String(part)
            }
        }
        return (parameters, score)
    }
}

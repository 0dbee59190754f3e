/// A check that may refuse a request before its handler runs (a per-client request cap), as one
/// synchronous call rather than a stage around the handler: each `RouterMiddleware` is a closure
/// layer the request is passed through on every request, about 280 instructions a layer
/// (callgrind; figures in Benchmarks/README.md's HTTP ledger), which a check that nearly always
/// passes need not pay.
///
/// The router asks its gates once it has resolved a request (so `routePattern` is set, and a
/// 404 or 405 is asked about too), before any middleware sees it — a CORS preflight included. A
/// refusal goes out through every middleware, as a handler's answer would.
public protocol RouterGate: Sendable {
    /// The answer that refuses `request`, or nil to let it through.
    func refusal(for request: Request) -> Response?
}

import HTTP
import Streams

/// `--client-request-rate`: a cheap cap on every route's requests per client address, before any
/// other work (so `/health` and the page are protected too). In-process only: a request costs a
/// lock and a dictionary look-up, and a flood is stopped by the replica it floods.
struct RequestRateMiddleware: RouterMiddleware {
    let limiter: LocalRateLimiter
    let proxies: TrustedProxies

    func handle(_ request: Request, next: @escaping RequestHandler) -> DataStream<Response> {
        let decision = limiter.take(clientIdentity(of: request, trusting: proxies))
        guard decision.allowed else { return .just(decision.refusal(limiter.policy, what: "The request rate", instance: request.path)) }
        return next(request)
    }
}

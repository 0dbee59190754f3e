import HTTP
import NetCore
import Streams

/// `--client-request-rate`: a cheap cap on every route's requests per client address, before any
/// other work (so `/health` and the page are protected too). In-process only: a request costs a
/// lock and a dictionary look-up, and a flood is stopped by the replica it floods.
struct RequestRateMiddleware: RouterMiddleware {
    let limiter: LocalRateLimiter<AddressDebts>
    let proxies: TrustedProxies

    func handle(_ request: Request, next: @escaping RequestHandler) -> DataStream<Response> {
        // A peer that is no IP address (a Unix socket) has no client address to cap.
        guard let client = clientAddress(of: request, trusting: proxies) else { return next(request) }
        if let refused = limiter.takeUnlessRefused(client) {
            return .just(refused.refusal(limiter.policy, what: "The request rate", instance: request.path))
        }
        return next(request)
    }
}

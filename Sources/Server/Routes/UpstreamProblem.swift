import Domain
import HTTP

/// How upstream failures become problem+json answers: 404 for an unknown user,
/// 503 + Retry-After for GitHub's rate limit, 504 for timeouts, 502 for the rest.
enum UpstreamProblem {
    /// - Parameter notFoundMeansUnknownUser: false where a 404 from the upstream is not about the
    ///   requested user (an avatar missing from a list): it is then an upstream failure, 502.
    static func httpError(for error: Error, subject: String, notFoundMeansUnknownUser: Bool = true) -> HTTPError {
        guard let upstreamError = error as? UpstreamError else {
            if let httpError = error as? HTTPError { return httpError }
            return HTTPError(.badGateway, detail: "Upstream request for \(subject) failed: \(error)")
        }
        switch upstreamError {
        case .status(404, _) where notFoundMeansUnknownUser:
            return HTTPError(.notFound, detail: "Unknown user: \(subject)")
        case .rateLimited(let seconds):
            return HTTPError(
                .serviceUnavailable, detail: "The upstream rate limit is exhausted; retry after \(seconds) seconds",
                headers: ["Retry-After": String(seconds)])
        case .timeout:
            return HTTPError(.gatewayTimeout, detail: "The upstream did not answer in time for \(subject), after retries")
        case .status(let code, _):
            return HTTPError(.badGateway, detail: "The upstream answered \(code) for \(subject), after retries")
        case .connection(let reason):
            return HTTPError(.badGateway, detail: "The upstream could not be reached for \(subject): \(reason)")
        case .malformed(let reason):
            return HTTPError(.badGateway, detail: "The upstream answer for \(subject) was not understood: \(reason)")
        }
    }

    static func response(for error: Error, subject: String, instance: String, notFoundMeansUnknownUser: Bool = true) -> Response {
        httpError(for: error, subject: subject, notFoundMeansUnknownUser: notFoundMeansUnknownUser).response(instance: instance)
    }
}

/// Why an upstream call failed, in the terms routes map to HTTP answers.
public enum UpstreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Could not connect, or the connection broke (including a body cut short).
    case connection(String)
    /// No complete answer within the per-request timeout.
    case timeout
    /// The upstream answered with this status (after retries, for retryable ones).
    case status(Int, retryAfterSeconds: Int?)
    /// GitHub's rate limit (403/429 with `X-RateLimit-Remaining: 0`).
    case rateLimited(retryAfterSeconds: Int)
    /// The answer could not be understood (bad HTTP or unexpected JSON).
    case malformed(String)

    public var description: String {
        switch self {
        case .connection(let reason): "upstream connection failed: \(reason)"
        case .timeout: "upstream timed out"
        case .status(let code, _): "upstream answered \(code)"
        case .rateLimited(let seconds): "upstream rate limit reached; retry after \(seconds) s"
        case .malformed(let reason): "upstream answer malformed: \(reason)"
        }
    }

    public var isNotFound: Bool { self == .status(404, retryAfterSeconds: nil) }

    /// Connection errors, timeouts, 5xx and 429 are worth another try; other 4xx never.
    public var isRetryable: Bool {
        switch self {
        case .connection, .timeout: true
        case .status(let code, _): code >= 500 || code == 429
        case .rateLimited, .malformed: false
        }
    }

    /// A server-requested wait before the next attempt, when it named one.
    public var retryAfterSeconds: Int? {
        switch self {
        case .status(_, let seconds): seconds
        case .rateLimited(let seconds): seconds
        default: nil
        }
    }
}

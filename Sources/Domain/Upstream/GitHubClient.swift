#if canImport(FoundationEssentials)
import ConcurrencyHelpers
import FoundationEssentials
#else
import Foundation
#endif
import NetCore
import Streams

/// The GitHub REST calls this service makes, each a cold `DataStream` with a per-attempt
/// timeout, retries per `RetryPolicy`, metrics, and cancellation on dispose.
public final class GitHubClient: Sendable {
    public struct Configuration: Sendable {
        public var baseURL: URL
        public var token: String?
        public var timeout: Duration
        public var retry: RetryPolicy

        public init(baseURL: URL, token: String? = nil, timeout: Duration = .seconds(5), retry: RetryPolicy = RetryPolicy()) {
            self.baseURL = baseURL
            self.token = token
            self.timeout = timeout
            self.retry = retry
        }
    }

    public let configuration: Configuration
    let transport: any UpstreamTransport
    let scheduler: any Scheduler
    public let metrics: UpstreamMetrics
    let clock = ContinuousClock()

    public init(configuration: Configuration, transport: any UpstreamTransport, scheduler: any Scheduler, metrics: UpstreamMetrics = UpstreamMetrics()) {
        self.configuration = configuration
        self.transport = transport
        self.scheduler = scheduler
        self.metrics = metrics
    }

    public func users(since: Int, perPage: Int, trace: PipelineTrace? = nil) -> DataStream<[GitHubUser]> {
        decoded([GitHubUser].self, path: "/users", query: "since=\(since)&per_page=\(perPage)", trace: trace, stage: "users")
    }

    public func user(login: String, trace: PipelineTrace? = nil) -> DataStream<GitHubUser> {
        decoded(GitHubUser.self, path: "/users/\(Self.escape(login))", trace: trace, stage: "user")
    }

    public func repos(login: String, trace: PipelineTrace? = nil) -> DataStream<[GitHubRepo]> {
        decoded([GitHubRepo].self, path: "/users/\(Self.escape(login))/repos", query: "per_page=100", trace: trace, stage: "repos")
    }

    public func avatar(url: URL, trace: PipelineTrace? = nil) -> DataStream<AvatarImage> {
        let stream = get(url, trace: trace, stage: "avatar")
        return DataStream { watcher in
            stream.watch { event in
                switch event {
                case .data(let response):
                    let type = response.header("content-type") ?? "application/octet-stream"
                    watcher.data(AvatarImage(bytes: response.body, contentType: type))
                case .error(let error): watcher.error(error)
                case .end: watcher.end()
                }
            }
        }
    }

    /// A single attempt, no retries: true when the upstream answers HTTP at all (any
    /// status), false when it cannot be reached in time. `/ready` uses it. It asks for
    /// `/rate_limit`, which GitHub does not count against the rate limit.
    public func probe(timeout: Duration = .seconds(2)) -> DataStream<Bool> {
        let url = configuration.baseURL.appending(path: "rate_limit")
        let attempt = Deadline.stream(transport.send(request(url)), limit: timeout, scheduler: scheduler)
        return DataStream { watcher in
            attempt.watch { event in
                switch event {
                case .data:
                    watcher.data(true)
                case .error:
                    watcher.data(false)
                    watcher.end()
                case .end:
                    watcher.end()
                }
            }
        }
    }

    func decoded<T: Decodable & Sendable>(_ type: T.Type, path: String, query: String? = nil, trace: PipelineTrace?, stage: String) -> DataStream<T> {
        var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: false)!
        components.percentEncodedPath = components.percentEncodedPath.trimmingSuffix("/") + path
        components.percentEncodedQuery = query
        let stream = get(components.url!, trace: trace, stage: stage)
        return DataStream { watcher in
            stream.watch { event in
                switch event {
                case .data(let response):
                    do {
                        watcher.data(try JSONDecoder().decode(T.self, from: Data(response.body)))
                    } catch {
                        watcher.error(UpstreamError.malformed("\(stage): \(error)"))
                    }
                case .error(let error): watcher.error(error)
                case .end: watcher.end()
                }
            }
        }
    }

    /// One GET with retries: each attempt is timed out, measured, and checked for a 2xx.
    func get(_ url: URL, trace: PipelineTrace?, stage: String) -> DataStream<UpstreamResponse> {
        let request = request(url)
        return Retrying.stream(
            policy: configuration.retry, scheduler: scheduler,
            onRetry: { [metrics] retry, error, delay in
                metrics.retried()
                trace?.publish(.retry, stage: stage, detail: "retry \(retry) in \(delay) after \(error)")
            },
            attempt: { self.measuredAttempt(request) })
    }

    private func measuredAttempt(_ request: UpstreamRequest) -> DataStream<UpstreamResponse> {
        let attempt = Deadline.stream(transport.send(request), limit: configuration.timeout, scheduler: scheduler)
        return DataStream { watcher in
            let started = self.clock.now
            let finished = OnceFlag()
            self.metrics.attemptStarted()
            let record: @Sendable (UpstreamMetrics.Outcome) -> Void = { outcome in
                guard finished.set() else { return }
                let elapsed = self.clock.now - started
                self.metrics.attemptFinished(outcome, seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
            let subscription = attempt.watch { event in
                switch event {
                case .data(let response):
                    if let error = Self.failure(for: response) {
                        record(Self.outcome(for: error))
                        watcher.error(error)
                    } else {
                        record(.success)
                        watcher.data(response)
                    }
                case .error(let error):
                    let upstreamError = error as? UpstreamError ?? .connection(String(describing: error))
                    record(Self.outcome(for: upstreamError))
                    watcher.error(upstreamError)
                case .end:
                    watcher.end()
                }
            }
            return Disposable {
                record(.cancelled)
                subscription.dispose()
            }
        }
    }

    func request(_ url: URL) -> UpstreamRequest {
        var headers = [
            "Accept": "application/vnd.github+json", "User-Agent": "stream-service", "Accept-Encoding": "gzip",
        ]
        if let token = configuration.token, !token.isEmpty, url.host == configuration.baseURL.host {
            headers["Authorization"] = "Bearer \(token)"
        }
        return UpstreamRequest(url: url, headers: headers)
    }

    /// nil for a 2xx answer; otherwise the error it stands for.
    static func failure(for response: UpstreamResponse) -> UpstreamError? {
        guard !(200..<300).contains(response.status) else { return nil }
        let retryAfter = response.header("retry-after").flatMap { Int($0.trimmingWhitespace()) }
        if response.status == 403 || response.status == 429, response.header("x-ratelimit-remaining") == "0" {
            let reset = response.header("x-ratelimit-reset").flatMap(Double.init).map { max(1, Int($0 - Date().timeIntervalSince1970)) }
            return .rateLimited(retryAfterSeconds: retryAfter ?? reset ?? 60)
        }
        return .status(response.status, retryAfterSeconds: retryAfter)
    }

    static func outcome(for error: UpstreamError) -> UpstreamMetrics.Outcome {
        switch error {
        case .connection, .malformed: .connectionError
        case .timeout: .timeout
        case .rateLimited: .rateLimited
        case .status(let code, _): code >= 500 ? .serverError : (code == 429 ? .rateLimited : .clientError)
        }
    }

    static func escape(_ segment: String) -> String {
        PercentEncoding.encodePathSegment(segment)
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
import NetCore
import Streams
import Tracing

/// The GitHub REST calls this service makes, each a cold `DataStream` written in Streams'
/// operators: an attempt is `send` (timed out by the transport, or by a `timeout` after it) →
/// `call` (status check and metrics),
/// `retry(_:backoff:scheduler:)` repeats it as `RetryPolicy` says, `recover` names the
/// stage that failed, and `map` decodes.
///
/// Requests follow GitHub's conventions: `Accept: application/vnd.github+json`,
/// `X-GitHub-Api-Version: 2022-11-28`, a `User-Agent` naming the service and its version,
/// the token only to the API origin, redirects followed (up to 5 hops, each hop a request
/// of its own with its own retries). Below the client, the transport stack coalesces
/// identical GETs in flight (`SingleFlightTransport`) and revalidates cached answers
/// (`CachingTransport`).
public final class GitHubClient: Sendable {
    public struct Configuration: Sendable {
        public var baseURL: URL
        public var token: String?
        /// One attempt; then it is retried.
        public var timeout: Duration
        public var retry: RetryPolicy
        /// One call in all (each redirect hop is a call): retries and their back-off never run past it.
        public var deadline: Duration
        /// The response cache's store; nil disables the cache (`--upstream-cache-bytes 0`).
        public var cache: (any UpstreamCacheStore)?
        /// Most repository pages `repos(login:)` reads (100 repositories a page), so one
        /// profile costs at most this many requests of the hourly rate limit.
        public var maxRepoPages: Int
        /// Identical GETs in flight at once share one upstream request (`SingleFlightTransport`);
        /// false sends each on its own (`--upstream-single-flight false`, for same-work benchmarks).
        public var singleFlight: Bool
        /// Requests ask for `Accept-Encoding: gzip`; false asks for the identity encoding
        /// (`--upstream-gzip false`: an upstream on this host, where inflating is pure cost).
        public var acceptsGzip: Bool
        /// The upstream's reported rate limit and the reserve kept from clients; nil = not watched.
        public var quota: UpstreamQuota?

        public init(
            baseURL: URL, token: String? = nil, timeout: Duration = .seconds(5), retry: RetryPolicy = RetryPolicy(),
            deadline: Duration = .seconds(10),
            cache: (any UpstreamCacheStore)? = nil, maxRepoPages: Int = GitHubClient.defaultMaxRepoPages, singleFlight: Bool = true,
            acceptsGzip: Bool = true, quota: UpstreamQuota? = nil
        ) {
            self.quota = quota
            self.singleFlight = singleFlight
            self.acceptsGzip = acceptsGzip
            self.baseURL = baseURL
            self.token = token
            self.timeout = timeout
            self.retry = retry
            self.deadline = deadline
            self.cache = cache
            self.maxRepoPages = maxRepoPages
        }
    }

    public static let apiVersion = "2022-11-28"
    /// Five hops, as curl's `--max-redirs` examples and Octokit use; a longer chain is a loop in practice.
    public static let maxRedirects = 5
    /// 301, 302, 303, 307, 308: a switch, not a `Set`'s hashing, twice an exchange (the figure:
    /// Benchmarks/README.md).
    static func isRedirect(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }
    /// 10 pages = 1,000 repositories: covers all but a handful of accounts while bounding
    /// one profile to 10 of the 5,000 requests an authenticated token gets per hour.
    public static let defaultMaxRepoPages = 10

    public let configuration: Configuration
    let transport: any UpstreamTransport
    let scheduler: any Scheduler
    public let metrics: UpstreamMetrics
    let headers: RequestHeaders
    /// `configuration.retry` as the retry operator's backoff, built once: each call sets only its
    /// `onRetry` (building it per call made three closure contexts).
    let backoff: RetryBackoff
    /// The tracer of the exchanges' CLIENT spans; nil when none was bootstrapped (no span, no cost).
    let tracer: (any Tracer)?
    /// `tracer`, when its spans take an attribute list whole (asked once, not per span).
    let attributeLists: (any SpanAttributeListTaking)?
    /// `server.address` and `server.port` of the CLIENT spans, per origin.
    let serverAddresses = ServerAddress.Memo()

    /// How a call keeps its deadline (see `UpstreamCall`).
    let deadlineKeeping: DeadlineKeeping
    /// The transport keeps each attempt's timeout (`UpstreamTransport.keepsTimeouts`, and not
    /// `TimeoutKeeping.stage`): no `timeout` stage per attempt.
    let transportKeepsTimeouts: Bool
    /// Something below the transport may read `ServiceContext.current`
    /// (`UpstreamTransport.readsServiceContext`): a fused call binds its CLIENT span's context
    /// around each attempt. Read once, not per call.
    let transportReadsContext: Bool
    /// The avatar URLs of the pages read lately, parsed (`avatarURL(_:)`).
    let avatarURLs = ParsedURLs(capacity: 1024)
    /// The SHA-256 of each user's avatar as last described, kept with its bytes (`DigestMemo`):
    /// a page shows the same avatars request after request. Up to 1,024 users and 8 MiB of images.
    let avatarDigests = DigestMemo(.sha256, capacity: 1024, maximumBytes: 8 << 20)

    /// How a call keeps `Configuration.deadline`.
    enum DeadlineKeeping {
        /// Each attempt's timeout and each back-off bounded by the time left: no stage or timer of its own.
        case bounds
        /// The slow twin: a second `timeout` over the retries, which tests hold `bounds` to.
        case stage
    }

    /// How a call's stages run (see `UpstreamCallRun`).
    let callFusing: CallFusing

    /// How a call's stages run.
    enum CallFusing {
        /// Fused into one object per subscription (`UpstreamCallRun`), for a call that keeps its
        /// deadline by `bounds` (its CLIENT span included). With `AvatarRun`: allocations a `/users` request
        /// 2,157 → 1,177, instructions −14.6 % (Benchmarks/README.md, Ledger).
        case fused
        /// The slow twin: the operators' composition (`UpstreamCall.response`), which tests hold
        /// `fused` to.
        case operators
    }

    /// Who keeps an attempt's timeout.
    enum TimeoutKeeping {
        /// The transport, when it can (`UpstreamTransport.keepsTimeouts`): the request carries it.
        case transport
        /// The slow twin: a `timeout` stage after `send`, which tests hold `transport` to.
        case stage
    }

    /// - Parameter transport: sends single exchanges; the client wraps it in the quota, cache and
    ///   single-flight stages.
    ///   - tracer: the tracer of its CLIENT spans; nil: the one bootstrapped in `InstrumentationSystem` now.
    public convenience init(
        configuration: Configuration, transport: any UpstreamTransport, scheduler: any Scheduler, metrics: UpstreamMetrics = UpstreamMetrics(),
        tracer: (any Tracer)? = nil
    ) {
        self.init(
            configuration: configuration, transport: transport, scheduler: scheduler, metrics: metrics, tracer: tracer, deadlineKeeping: .bounds,
            timeoutKeeping: .transport)
    }

    init(
        configuration: Configuration, transport: any UpstreamTransport, scheduler: any Scheduler, metrics: UpstreamMetrics,
        tracer: (any Tracer)? = nil, deadlineKeeping: DeadlineKeeping, timeoutKeeping: TimeoutKeeping = .transport, callFusing: CallFusing = .fused
    ) {
        self.deadlineKeeping = deadlineKeeping
        self.callFusing = callFusing
        self.configuration = configuration
        self.tracer = ActiveTracer.resolve(tracer)
        attributeLists = self.tracer as? any SpanAttributeListTaking
        // The quota stage sits below the cache, where it sees what really goes upstream (a 304 included).
        let metered: any UpstreamTransport = QuotaTransport(transport, quota: configuration.quota, api: UpstreamOrigin(configuration.baseURL))
        let cached = configuration.cache.map { CachingTransport(metered, store: $0, metrics: metrics) } ?? metered
        self.transport = configuration.singleFlight ? SingleFlightTransport(cached, metrics: metrics) : cached
        transportKeepsTimeouts = timeoutKeeping == .transport && self.transport.keepsTimeouts
        transportReadsContext = self.transport.readsServiceContext
        self.scheduler = scheduler
        self.metrics = metrics
        headers = RequestHeaders(token: configuration.token, acceptsGzip: configuration.acceptsGzip)
        backoff = configuration.retry.backoff()
    }

    public func users(since: Int, perPage: Int, trace: PipelineTrace? = nil) -> Single<[GitHubUser]> {
        get(apiURL("/users", query: "since=\(since)&per_page=\(perPage)"), stage: .users, trace: trace)
            .map { try GitHubUserReader.list($0.body) ?? Self.decode([GitHubUser].self, $0, stage: .users) }
            .asSingle()
    }

    /// The public profile (`public-user`).
    public func user(login: String, trace: PipelineTrace? = nil) -> Single<GitHubUser> {
        get(apiURL("/users/\(Self.escape(login))"), stage: .user(login), trace: trace)
            .map { try GitHubUserReader.user($0.body) ?? Self.decode(GitHubUser.self, $0, stage: .user(login)) }
            .asSingle()
    }

    /// Every repository, following `Link: rel="next"` for up to `maxRepoPages` pages.
    public func repos(login: String, trace: PipelineTrace? = nil) -> Single<[GitHubRepo]> {
        repoPages(apiURL("/users/\(Self.escape(login))/repos", query: "per_page=100"), login: login, pagesLeft: configuration.maxRepoPages, trace: trace)
            .reduce([GitHubRepo]()) { $0 + $1 }
            .asSingle()
    }

    private func repoPages(_ url: URL, login: String, pagesLeft: Int, trace: PipelineTrace?) -> DataStream<[GitHubRepo]> {
        get(url, stage: .repos(login), trace: trace).redirect { response -> DataStream<[GitHubRepo]> in
            let page = try Self.decode([GitHubRepo].self, response, stage: .repos(login))
            guard pagesLeft > 1, let next = LinkHeader.target(response.header("link"), relation: "next", base: url) else {
                return .just(page)
            }
            return DataStream.concat(DataStream.just(page), self.repoPages(next, login: login, pagesLeft: pagesLeft - 1, trace: trace))
        }
    }

    public func avatar(url: URL, login: String, trace: PipelineTrace? = nil) -> Single<AvatarImage> {
        avatar(url: url, login: login, trace: trace) { $0 }.asSingle()
    }

    /// The avatar as `avatar(url:login:trace:)` fetches it, made into what the caller keeps of it
    /// in the same stage: one value then the end, or a failure, as that `Single` has. The page's
    /// fan-out uses it: the `Single`'s `asSingle` check and a `map` after it were two stages more
    /// per avatar (the figure: Benchmarks/README.md).
    func avatar<Kept: Sendable>(
        url: URL, login: String, trace: PipelineTrace?, _ keep: @escaping @Sendable (AvatarImage) -> Kept
    ) -> DataStream<Kept> {
        get(url, stage: .avatar(login), trace: trace)
            .map { keep(AvatarImage(bytes: $0.body, contentType: $0.header("content-type") ?? "application/octet-stream")) }
    }

    /// A user's `avatar_url` as a `URL`, as `URL(string:)` reads it (nil for one it refuses).
    public func avatarURL(_ string: String) -> URL? {
        avatarURLs.url(string)
    }

    /// A single attempt, no retries: true when the upstream answers HTTP at all (any
    /// status), false when it cannot be reached in time. `/ready` uses it. It asks for
    /// `/rate_limit`, which GitHub does not count against the rate limit.
    public func probe(timeout: Duration = .seconds(2)) -> Single<Bool> {
        transport.send(request(apiURL("/rate_limit")))
            .timeout(timeout, scheduler: scheduler)
            .map { _ in true }
            .recover(false)
            .asSingle()
    }

    /// One GET, following redirects; a final failure is an `UpstreamFailure` naming `stage`
    /// (see `UpstreamCall`, one per subscription).
    ///
    ///     retried(url):   --302(b)|
    ///     retried(b):             --200|
    ///     get(url):       ----------200|
    func get(_ url: URL, stage: UpstreamStage, trace: PipelineTrace?, hopsLeft: Int = GitHubClient.maxRedirects) -> DataStream<UpstreamResponse> {
        if fusesCalls {
            return DataStream.holding { [self] downstream, subscription in
                run(url, stage: stage, trace: trace, hopsLeft: hopsLeft, for: downstream, settingUp: subscription)
            }
        }
        return DataStream.deferred { [self] in UpstreamCall(client: self, url: url, stage: stage, trace: trace, hopsLeft: hopsLeft).response }
    }

    /// `get(url, stage:trace:)` watched by `watcher` now: for a stage that makes the watcher of
    /// its GET per subscription (`AvatarRun`), so that its stream need not hold a `get` stream
    /// too (2 allocations an avatar: the stream and its closure's context).
    func watchGet(_ url: URL, stage: UpstreamStage, trace: PipelineTrace?, using watcher: Watcher<UpstreamResponse>) -> Disposable {
        guard fusesCalls else { return get(url, stage: stage, trace: trace).watch(using: watcher) }
        return DataStream.watch(watcher, holding: { downstream, subscription in
            run(url, stage: stage, trace: trace, hopsLeft: Self.maxRedirects, for: downstream, settingUp: subscription)
        })
    }

    /// A call runs as one `UpstreamCallRun`: fused, and keeping its deadline by `bounds`.
    private var fusesCalls: Bool { callFusing == .fused && deadlineKeeping == .bounds }

    /// A fused call's subscription: its run, feeding `downstream`.
    private func run(
        _ url: URL, stage: UpstreamStage, trace: PipelineTrace?, hopsLeft: Int, for downstream: Watcher<UpstreamResponse>, settingUp subscription: Disposable
    ) {
        // Made here, in the subscriber's context: its span is a child of that context.
        let call = UpstreamCall(client: self, url: url, stage: stage, trace: trace, hopsLeft: hopsLeft, settingUp: subscription)
        UpstreamCallRun(call: call, downstream: downstream, subscription: subscription).run()
    }

    func apiURL(_ path: String, query: String? = nil) -> URL {
        var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: false)!
        components.percentEncodedPath = components.percentEncodedPath.trimmingSuffix("/") + path
        components.percentEncodedQuery = query
        return components.url!
    }

    /// The headers GitHub documents for REST calls; the token only to the API's origin.
    func request(_ url: URL) -> UpstreamRequest {
        if !headers.withToken.isEmpty, UpstreamOrigin(url) == UpstreamOrigin(configuration.baseURL) {
            return UpstreamRequest(url: url, headers: headers.withToken)
        }
        return UpstreamRequest(url: url, headers: headers.plain)
    }

    /// Every request's headers, built once: one dictionary shared by all requests (building it per
    /// request is work repeated (the figure: Benchmarks/README.md), and the transport recognises a
    /// shared one at once, `HTTPUpstreamTransport`).
    struct RequestHeaders: Sendable {
        let plain: [String: String]
        /// With `Authorization`, for the API's origin; empty without a token.
        let withToken: [String: String]

        init(token: String?, acceptsGzip: Bool) {
            var plain = [
                "Accept": "application/vnd.github+json", "X-GitHub-Api-Version": GitHubClient.apiVersion,
                "User-Agent": ServiceIdentity.userAgent,
            ]
            if acceptsGzip { plain["Accept-Encoding"] = "gzip" }
            self.plain = plain
            guard let token, !token.isEmpty else {
                withToken = [:]
                return
            }
            withToken = plain.merging(["Authorization": "Bearer \(token)"]) { _, new in new }
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ response: UpstreamResponse, stage: UpstreamStage) throws(UpstreamFailure) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(response.body))
        } catch {
            throw UpstreamFailure(.malformed("\(stage.name): \(error)"), stage: stage)
        }
    }

    static func outcome(for error: UpstreamError) -> UpstreamMetrics.Outcome {
        switch error {
        case .connection, .malformed: .connectionError
        case .timeout, .deadlineExceeded: .timeout
        case .rateLimited: .rateLimited
        case .status(let code, _): code >= 500 ? .serverError : .clientError
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

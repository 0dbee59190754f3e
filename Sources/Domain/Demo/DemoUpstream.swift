#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StreamServiceConcurrency
import NetCore
import Streams

/// The embedded GitHub-shaped upstream: users, repos and identicon avatars in the shapes of
/// GitHub's published schemas, with GitHub's conventions (`x-ratelimit-*` headers, weak
/// ETags and 304 on `If-None-Match`, `/rate_limit`, `Link` paging, avatars on a separate
/// origin, some behind a redirect) and misbehaviour on demand, seeded and reproducible
/// (failures, a rate limit with 403s and 429s). Transport-independent; `DemoUpstreamServer`
/// (Server target) puts it on two sockets: the API and the avatar origin.
public final class DemoUpstream: Sendable {
    public struct Configuration: Sendable {
        public var users: Int
        public var latency: Duration
        public var failureRate: Double
        public var seed: Int
        /// API requests allowed per hour window; 0 = unlimited (`--demo-rate-limit`).
        public var rateLimit: Int

        public init(users: Int = 1000, latency: Duration = .zero, failureRate: Double = 0, seed: Int = 42, rateLimit: Int = 0) {
            self.users = users
            self.latency = latency
            self.failureRate = failureRate
            self.seed = seed
            self.rateLimit = rateLimit
        }
    }

    /// GitHub's largest page.
    static let maxPerPage = 100

    public let configuration: Configuration
    public let directory: DemoDirectory
    private let faults: FaultInjector
    private let rateLimit: DemoRateLimit
    private let identicons = IdenticonCache()
    private let scheduler: any Scheduler
    private let avatarPort = Locked<Int?>(nil)
    private let served = Locked(Statistics())

    /// What the demo has answered so far: every request, and how many got a 304.
    public struct Statistics: Sendable, Equatable {
        public var requests = 0
        public var notModified = 0
    }

    public var statistics: Statistics { served.withLock { $0 } }

    public init(configuration: Configuration = Configuration(), scheduler: any Scheduler = QueueScheduler.global) {
        self.configuration = configuration
        self.directory = DemoDirectory(userCount: configuration.users)
        self.faults = FaultInjector(rate: configuration.failureRate, seed: configuration.seed)
        self.rateLimit = DemoRateLimit(limit: configuration.rateLimit, seed: configuration.seed)
        self.scheduler = scheduler
    }

    /// Avatar URLs point at this port on the host the client used, once the avatar origin
    /// listens there; until then avatars are addressed on the API's own origin.
    public func serveAvatars(onPort port: Int) {
        avatarPort.withLock { $0 = port }
    }

    /// One answer per request, delivered `latency` after subscription on the scheduler
    /// (no thread sleeps); disposing before then cancels it.
    public func respond(to request: DemoRequest) -> DataStream<DemoResponse> {
        guard configuration.latency > .zero else { return DataStream.deferred { DataStream.just(self.answer(request)) } }
        return DataStream<Int>.timer(configuration.latency, scheduler: scheduler).map { _ in self.answer(request) }
    }

    /// The answer without latency, fault injection included.
    public func answer(_ request: DemoRequest, now: Date = Date()) -> DemoResponse {
        let response = faultOrRoute(request, now: now)
        served.withLock { statistics in
            statistics.requests += 1
            if response.status == 304 { statistics.notModified += 1 }
        }
        return response
    }

    private func faultOrRoute(_ request: DemoRequest, now: Date) -> DemoResponse {
        if let fault = faults.nextFault() {
            switch fault {
            case .status(let status):
                return json(status: status, .object(["message": .string("Injected demo failure")]), now: now)
            case .truncated:
                var response = route(request, now: now)
                response.truncatedAfter = response.body.count / 2
                return response
            }
        }
        return route(request, now: now)
    }

    func route(_ request: DemoRequest, now: Date) -> DemoResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return json(status: 405, Self.message("Method Not Allowed"), now: now)
        }
        let segments = request.path.split(separator: "/").map(String.init)
        switch segments.count {
        case 1 where segments[0] == "rate_limit":
            let core = rateLimit.core(now: now)
            return json(status: 200, .object(["resources": .object(["core": core]), "rate": core]), now: now)
        case 1 where segments[0].hasSuffix(".png"):
            return avatarRedirect(login: String(segments[0].dropLast(4)), request, now: now)
        case 2 where segments[0] == "u":
            return avatar(id: Int(segments[1]), request)
        case 1 where segments[0] == "users", 2 where segments[0] == "users", 3 where segments[0] == "users" && segments[2] == "repos":
            return api(request, now: now) {
                switch segments.count {
                case 1: usersPage(request, now: now)
                case 2: userDetail(login: segments[1], request, now: now)
                default: repos(login: segments[1], request, now: now)
                }
            }
        default:
            return json(status: 404, Self.message("Not Found"), now: now)
        }
    }

    /// An API answer: 304 when `If-None-Match` names its ETag (not counted, as GitHub does
    /// not count a 304), else counted against the rate limit, which may refuse it.
    private func api(_ request: DemoRequest, now: Date, _ answer: () -> DemoResponse) -> DemoResponse {
        var response = answer()
        if response.status == 200, let etag = response.headers["ETag"], let condition = request.headers["if-none-match"],
            Self.matches(condition, etag: etag)
        {
            return DemoResponse(status: 304, headers: rateLimit.headers(now: now).merging(["ETag": etag]) { _, new in new })
        }
        switch rateLimit.admit(now: now) {
        case .allowed:
            response.headers.merge(rateLimit.headers(now: now)) { _, limit in limit }
            return response
        case .exhausted:
            return json(status: 403, Self.message("API rate limit exceeded for 127.0.0.1."), now: now)
        case .throttled(let seconds):
            var refused = json(status: 429, Self.message("You have exceeded a secondary rate limit."), now: now)
            refused.headers["Retry-After"] = String(seconds)
            return refused
        }
    }

    private func shapes(_ request: DemoRequest) -> GitHubShapes {
        let api = "http://\(request.host)"
        guard let port = avatarPort.withLock({ $0 }) else { return GitHubShapes(api: api, avatars: api) }
        // The host without its port: "[::1]:8080" → "[::1]", "127.0.0.1:8080" → "127.0.0.1".
        let hostname = request.host.hasPrefix("[")
            ? String(request.host.prefix { $0 != "]" }) + "]"
            : String(request.host.prefix { $0 != ":" })
        return GitHubShapes(api: api, avatars: "http://\(hostname):\(port)")
    }

    private func usersPage(_ request: DemoRequest, now: Date) -> DemoResponse {
        guard let since = Int(request.query["since"] ?? "0"), let perPage = Int(request.query["per_page"] ?? "30"), perPage > 0 else {
            return json(status: 422, Self.message("Validation Failed"), now: now)
        }
        let size = min(perPage, Self.maxPerPage)
        let page = directory.users(since: since, perPage: size)
        let shapes = shapes(request)
        var response = json(status: 200, .array(page.map { .object(shapes.simpleUser($0)) }), now: now)
        if let last = page.last, last.id < directory.userCount {
            response.headers["Link"] = "<http://\(request.host)/users?since=\(last.id)&per_page=\(size)>; rel=\"next\""
        }
        return response
    }

    private func userDetail(login: String, _ request: DemoRequest, now: Date) -> DemoResponse {
        guard let user = directory.user(login: login) else { return json(status: 404, Self.message("Not Found"), now: now) }
        return json(status: 200, .object(shapes(request).publicUser(user, repoCount: directory.repos(of: user).count)), now: now)
    }

    /// `?per_page=` (default 30, at most 100) and `?page=` (from 1), with GitHub's `Link`
    /// relations `prev`, `next`, `last` and `first`.
    private func repos(login: String, _ request: DemoRequest, now: Date) -> DemoResponse {
        guard let user = directory.user(login: login) else { return json(status: 404, Self.message("Not Found"), now: now) }
        guard let perPage = Int(request.query["per_page"] ?? "30"), perPage > 0, let page = Int(request.query["page"] ?? "1"), page > 0 else {
            return json(status: 422, Self.message("Validation Failed"), now: now)
        }
        let size = min(perPage, Self.maxPerPage)
        let all = directory.repos(of: user)
        let slice = all.dropFirst((page - 1) * size).prefix(size)
        let shapes = shapes(request)
        var response = json(status: 200, .array(slice.map { .object(shapes.minimalRepository($0, owner: user)) }), now: now)
        let lastPage = max(1, (all.count + size - 1) / size)
        let link = { (number: Int, relation: String) in
            "<http://\(request.host)/users/\(login)/repos?per_page=\(size)&page=\(number)>; rel=\"\(relation)\""
        }
        var links: [String] = []
        if page > 1 { links += [link(page - 1, "prev")] }
        if page < lastPage { links += [link(page + 1, "next"), link(lastPage, "last")] }
        if page > 1 { links += [link(1, "first")] }
        if !links.isEmpty { response.headers["Link"] = links.joined(separator: ", ") }
        return response
    }

    /// `/{login}.png` on the API origin redirects to the avatar origin, as github.com does.
    private func avatarRedirect(login: String, _ request: DemoRequest, now: Date) -> DemoResponse {
        guard let user = directory.user(login: login) else { return json(status: 404, Self.message("Not Found"), now: now) }
        return DemoResponse(status: 302, headers: ["Location": "\(shapes(request).avatars)/u/\(user.id)?v=4", "Content-Length": "0"])
    }

    private func avatar(id: Int?, _ request: DemoRequest) -> DemoResponse {
        guard let user = id.flatMap(directory.user(id:)) else {
            return DemoResponse(status: 404, headers: ["Content-Type": "text/plain"], body: Array("Not Found".utf8))
        }
        let png = identicons.png(for: user.login)
        let etag = "\"\(SHA256Digest.hex(png).prefix(32))\""
        if let condition = request.headers["if-none-match"], Self.matches(condition, etag: etag) {
            return DemoResponse(status: 304, headers: ["ETag": etag, "Cache-Control": "max-age=300"])
        }
        return DemoResponse(status: 200, headers: ["Content-Type": "image/png", "Cache-Control": "max-age=300", "ETag": etag], body: png)
    }

    static func message(_ text: String) -> DemoJSON {
        .object(["message": .string(text), "documentation_url": .string("https://docs.github.com/rest")])
    }

    /// Weak comparison, as GitHub applies it: `W/` ignored, `*` matches anything.
    static func matches(_ condition: String, etag: String) -> Bool {
        let strip = { (tag: Substring) -> Substring in tag.hasPrefix("W/") ? tag.dropFirst(2) : tag }
        return condition.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingWhitespace()
            return tag == "*" || strip(Substring(tag)) == strip(Substring(etag))
        }
    }

    /// A JSON answer with GitHub's headers: content type, a weak ETag of the body, the rate limit.
    func json(status: Int, _ value: DemoJSON, now: Date) -> DemoResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)).map { Array($0) } ?? Array("{}".utf8)
        var headers = rateLimit.headers(now: now)
        headers["Content-Type"] = "application/json; charset=utf-8"
        if status == 200 { headers["ETag"] = "W/\"\(SHA256Digest.hex(body).prefix(32))\"" }
        return DemoResponse(status: status, headers: headers, body: body)
    }
}

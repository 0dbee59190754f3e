#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Streams

/// The embedded GitHub-compatible upstream: users, repos and identicon avatars, with
/// knobs for latency and failures. Transport-independent; `DemoUpstreamServer` (Server
/// target) puts it on a socket.
public final class DemoUpstream: Sendable {
    public struct Configuration: Sendable {
        public var users: Int
        public var latency: Duration
        public var failureRate: Double
        public var seed: Int

        public init(users: Int = 1000, latency: Duration = .zero, failureRate: Double = 0, seed: Int = 42) {
            self.users = users
            self.latency = latency
            self.failureRate = failureRate
            self.seed = seed
        }
    }

    public let configuration: Configuration
    public let directory: DemoDirectory
    private let faults: FaultInjector
    private let identicons = IdenticonCache()
    private let scheduler: any Scheduler

    public init(configuration: Configuration = Configuration(), scheduler: any Scheduler = QueueScheduler.global) {
        self.configuration = configuration
        self.directory = DemoDirectory(userCount: configuration.users)
        self.faults = FaultInjector(rate: configuration.failureRate, seed: configuration.seed)
        self.scheduler = scheduler
    }

    /// One answer per request, delivered `latency` after subscription on the scheduler
    /// (no thread sleeps); disposing before then cancels it.
    public func respond(to request: DemoRequest) -> DataStream<DemoResponse> {
        DataStream { watcher in
            let deliver: @Sendable () -> Void = {
                watcher.data(self.answer(request))
                watcher.end()
            }
            if self.configuration.latency <= .zero {
                deliver()
                return Disposable()
            }
            return self.scheduler.schedule(after: self.configuration.latency, deliver)
        }
    }

    /// The answer without latency, fault injection included.
    public func answer(_ request: DemoRequest) -> DemoResponse {
        if let fault = faults.nextFault() {
            switch fault {
            case .status(let status):
                return Self.json(status: status, GitHubMessage(message: "Injected demo failure"))
            case .truncated:
                var response = route(request)
                response.truncatedAfter = response.body.count / 2
                return response
            }
        }
        return route(request)
    }

    func route(_ request: DemoRequest) -> DemoResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return Self.json(status: 405, GitHubMessage(message: "Method Not Allowed"))
        }
        let segments = request.path.split(separator: "/").map(String.init)
        switch segments.count {
        case 1 where segments[0] == "users":
            return usersPage(request)
        case 2 where segments[0] == "users":
            return userDetail(login: segments[1], request)
        case 3 where segments[0] == "users" && segments[2] == "repos":
            return repos(login: segments[1])
        case 2 where segments[0] == "avatars" && segments[1].hasSuffix(".png"):
            return avatar(login: String(segments[1].dropLast(4)))
        default:
            return Self.notFound
        }
    }

    private func usersPage(_ request: DemoRequest) -> DemoResponse {
        guard let since = Int(request.query["since"] ?? "0"),
            let perPage = Int(request.query["per_page"] ?? "30"), perPage > 0
        else {
            return Self.json(status: 422, GitHubMessage(message: "Validation Failed"))
        }
        let page = directory.users(since: since, perPage: min(perPage, 100))
        var response = Self.json(status: 200, page.map { gitHubUser($0, request, detailed: false) })
        if let last = page.last, last.id < directory.userCount {
            response.headers["Link"] = "<http://\(request.host)/users?since=\(last.id)&per_page=\(min(perPage, 100))>; rel=\"next\""
        }
        return response
    }

    private func userDetail(login: String, _ request: DemoRequest) -> DemoResponse {
        guard let user = directory.user(login: login) else { return Self.notFound }
        return Self.json(status: 200, gitHubUser(user, request, detailed: true))
    }

    private func repos(login: String) -> DemoResponse {
        guard let user = directory.user(login: login) else { return Self.notFound }
        let repos = directory.repos(of: user).map {
            GitHubRepo(id: $0.id, name: $0.name, language: $0.language, stargazersCount: $0.stars)
        }
        return Self.json(status: 200, repos)
    }

    private func avatar(login: String) -> DemoResponse {
        guard let user = directory.user(login: login) else { return Self.notFound }
        let png = identicons.png(for: user.login)
        return DemoResponse(
            status: 200,
            headers: ["Content-Type": "image/png", "Cache-Control": "public, max-age=86400", "ETag": "\"\(user.login)-v1\""],
            body: png)
    }

    private func gitHubUser(_ user: DemoUser, _ request: DemoRequest, detailed: Bool) -> GitHubUser {
        GitHubUser(
            login: user.login, id: user.id, avatarUrl: "http://\(request.host)/avatars/\(user.login).png",
            name: user.name, publicRepos: detailed ? directory.repos(of: user).count : nil)
    }

    static let notFound = json(status: 404, GitHubMessage(message: "Not Found"))

    static func json(status: Int, _ value: some Encodable) -> DemoResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = (try? encoder.encode(value)).map { Array($0) } ?? Array("{}".utf8)
        return DemoResponse(
            status: status,
            headers: ["Content-Type": "application/json; charset=utf-8", "X-RateLimit-Limit": "5000", "X-RateLimit-Remaining": "4999"],
            body: body)
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
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
    /// Encoded `/users`, `/users/{login}` and `/users/{login}/repos` answers. 64 MiB holds
    /// everything the service asks of the default 1,000-user directory from one origin (every
    /// page of 30 and of 100 users, every profile, every repos page of 100: 2,051 answers,
    /// 38 MiB), so only a sweep over several `Host` names or a larger directory starts it over.
    private let answers = BoundedMemo<DemoAnswerKey, DemoDocument>(capacityBytes: 64 << 20) { $0.bytes + $1.bytes }
    /// Origins by `Host`: a client uses one or two, so 64 KiB (hundreds) is plenty.
    private let origins = BoundedMemo<OriginsKey, GitHubShapes>(capacityBytes: 64 << 10) { key, shapes in
        32 + key.host.utf8.count + shapes.api.utf8.count + shapes.avatars.utf8.count
    }
    /// Identicons by user id: an entry is about 270 bytes (a 164-byte PNG and its fields), so
    /// 2 MiB holds about 7,500 of them, the default directory 1,000.
    private let avatars = BoundedMemo<Int, DemoDocument>(capacityBytes: 2 << 20) { 16 + $1.bytes }
    private let scheduler: any Scheduler
    private let avatarOrigin = Locked<AvatarOrigin?>(nil)
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

    /// Where avatar URLs point; until one is set, at the API's own origin.
    public enum AvatarOrigin: Hashable, Sendable {
        /// This port on the host the client used: the standalone demo, reached by its address.
        case port(Int)
        /// One fixed origin whatever the client's `Host` (`http://avatars.demo.invalid`), as GitHub's
        /// is `https://avatars.githubusercontent.com`: answers then name no port of this process,
        /// so replicas and restarts give byte-identical answers (and ETags).
        case named(String)
    }

    /// Avatar URLs point at this port on the host the client used, once the avatar origin
    /// listens there; until then avatars are addressed on the API's own origin.
    public func serveAvatars(onPort port: Int) {
        serveAvatars(at: .port(port))
    }

    public func serveAvatars(at origin: AvatarOrigin) {
        avatarOrigin.withLock { $0 = origin }
    }

    /// One answer per request, delivered `latency` after subscription on the scheduler
    /// (no thread sleeps); disposing before then cancels it.
    public func respond(to request: DemoRequest) -> DataStream<DemoResponse> {
        // `just` then `map` fuse into one synchronous source (so does a transport's own `map`
        // after it): the answer is made when watched, with no stage per operator.
        guard configuration.latency > .zero else { return DataStream.just(request).map { self.answer($0) } }
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
                return respond(status, Self.injectedFailure, now: now)
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
            return respond(405, Self.methodNotAllowed, now: now)
        }
        switch DemoRoute(request) {
        case .rateLimit:
            let core = rateLimit.core(now: now)
            return respond(200, .json(.object(["resources": .object(["core": core]), "rate": core]), tagged: true), now: now)
        case .avatarRedirect(let login):
            return avatarRedirect(login: String(login), request, now: now)
        case .avatar(let id):
            return avatar(id: id, ifNoneMatch: request.ifNoneMatch)
        case .users:
            return api(request, now: now) { usersPage(request) }
        case .user(let login):
            return api(request, now: now) { userDetail(login: String(login), request) }
        case .repos(let login):
            return api(request, now: now) { repos(login: String(login), request) }
        case .notFound:
            return respond(404, Self.notFound, now: now)
        }
    }

    /// A document answered with the rate limit's fields after its own.
    private func respond(_ status: Int, _ document: DemoDocument, now: Date, isStored: Bool = false) -> DemoResponse {
        var fields = document.fields
        rateLimit.snapshot(now: now).appendFields(to: &fields)
        return DemoResponse(status: status, fields: fields, body: document.body, isStored: isStored)
    }

    /// An API answer: 304 when `If-None-Match` names its ETag (not counted, as GitHub does
    /// not count a 304), else counted against the rate limit, which may refuse it.
    private func api(_ request: DemoRequest, now: Date, _ answer: () -> (status: Int, document: DemoDocument)) -> DemoResponse {
        let (status, document) = answer()
        if status == 200, let etag = document.etag, let condition = request.ifNoneMatch, Self.matches(condition, etag: etag) {
            var fields = HTTPHeaders([("ETag", etag)])
            rateLimit.snapshot(now: now).appendFields(to: &fields)
            return DemoResponse(status: 304, fields: fields)
        }
        switch rateLimit.admit(now: now) {
        case .allowed:
            return respond(status, document, now: now, isStored: status == 200)
        case .exhausted:
            return respond(403, Self.rateLimitExceeded, now: now)
        case .throttled(let seconds):
            // Between the document's Content-Type and the rate limit's fields, in name order.
            var fields = Self.secondaryRateLimit.fields
            fields.add(name: "Retry-After", value: String(seconds))
            rateLimit.snapshot(now: now).appendFields(to: &fields)
            return DemoResponse(status: 429, fields: fields, body: Self.secondaryRateLimit.body)
        }
    }

    /// The origins answers point at, for the `Host` the client used, worked out once per host.
    private func shapes(_ request: DemoRequest) -> GitHubShapes {
        let avatars = avatarOrigin.withLock { $0 }
        return origins.value(for: OriginsKey(host: request.host, avatars: avatars)) {
            let api = "http://\(request.host)"
            switch avatars {
            case nil:
                return GitHubShapes(api: api, avatars: api)
            case .named(let origin):
                return GitHubShapes(api: api, avatars: origin)
            case .port(let port):
                // The host without its port: "[::1]:8080" → "[::1]", "127.0.0.1:8080" → "127.0.0.1".
                let hostname = request.host.hasPrefix("[")
                    ? String(request.host.prefix { $0 != "]" }) + "]"
                    : String(request.host.prefix { $0 != ":" })
                return GitHubShapes(api: api, avatars: "http://\(hostname):\(port)")
            }
        }
    }

    private struct OriginsKey: Hashable, Sendable {
        let host: String
        let avatars: AvatarOrigin?
    }

    private func usersPage(_ request: DemoRequest) -> (status: Int, document: DemoDocument) {
        guard let since = Int(request.queryValue("since") ?? "0"), let perPage = Int(request.queryValue("per_page") ?? "30"), perPage > 0 else {
            return (422, Self.validationFailed)
        }
        let size = min(perPage, Self.maxPerPage)
        let shapes = shapes(request)
        let page = answers.value(for: DemoAnswerKey(resource: .users(since: max(since, 0), perPage: size), shapes: shapes)) {
            let users = directory.users(since: since, perPage: size)
            let link = users.last.flatMap { last in
                last.id < directory.userCount ? "<\(shapes.api)/users?since=\(last.id)&per_page=\(size)>; rel=\"next\"" : nil
            }
            return .json(.array(users.map { .object(shapes.simpleUser($0)) }), tagged: true, link: link)
        }
        return (200, page)
    }

    private func userDetail(login: String, _ request: DemoRequest) -> (status: Int, document: DemoDocument) {
        let shapes = shapes(request)
        let detail = answers.value(for: DemoAnswerKey(resource: .user(login: login), shapes: shapes)) {
            directory.user(login: login).map { user in
                .json(.object(shapes.publicUser(user, repoCount: directory.repos(of: user).count)), tagged: true)
            }
        }
        return detail.map { (200, $0) } ?? (404, Self.notFound)
    }

    /// `?per_page=` (default 30, at most 100) and `?page=` (from 1), with GitHub's `Link`
    /// relations `prev`, `next`, `last` and `first`.
    private func repos(login: String, _ request: DemoRequest) -> (status: Int, document: DemoDocument) {
        guard let perPage = Int(request.queryValue("per_page") ?? "30"), perPage > 0, let page = Int(request.queryValue("page") ?? "1"), page > 0 else {
            return directory.user(login: login) == nil ? (404, Self.notFound) : (422, Self.validationFailed)
        }
        let size = min(perPage, Self.maxPerPage)
        let shapes = shapes(request)
        let slice = answers.value(for: DemoAnswerKey(resource: .repos(login: login, perPage: size, page: page), shapes: shapes)) {
            directory.user(login: login).map { user in
                let all = directory.repos(of: user)
                let items = all.dropFirst((page - 1) * size).prefix(size).map { DemoJSON.object(shapes.minimalRepository($0, owner: user)) }
                let lastPage = max(1, (all.count + size - 1) / size)
                let link = { (number: Int, relation: String) in
                    "<\(shapes.api)/users/\(login)/repos?per_page=\(size)&page=\(number)>; rel=\"\(relation)\""
                }
                var links: [String] = []
                if page > 1 { links += [link(page - 1, "prev")] }
                if page < lastPage { links += [link(page + 1, "next"), link(lastPage, "last")] }
                if page > 1 { links += [link(1, "first")] }
                return .json(.array(items), tagged: true, link: links.isEmpty ? nil : links.joined(separator: ", "))
            }
        }
        return slice.map { (200, $0) } ?? (404, Self.notFound)
    }

    /// `/{login}.png` on the API origin redirects to the avatar origin, as github.com does.
    private func avatarRedirect(login: String, _ request: DemoRequest, now: Date) -> DemoResponse {
        guard let id = directory.id(ofLogin: login) else { return respond(404, Self.notFound, now: now) }
        return DemoResponse(status: 302, fields: HTTPHeaders([("Content-Length", "0"), ("Location", "\(shapes(request).avatars)/u/\(id)?v=4")]))
    }

    private func avatar(id: Int?, ifNoneMatch condition: String?) -> DemoResponse {
        guard let id, let image = avatars.value(for: id, orMake: { directory.user(id: id).map(DemoDocument.avatar(of:)) }) else {
            return DemoResponse(status: 404, fields: HTTPHeaders([("Content-Type", "text/plain")]), body: Array("Not Found".utf8))
        }
        if let etag = image.etag, let condition, Self.matches(condition, etag: etag) {
            return DemoResponse(status: 304, fields: HTTPHeaders([("Cache-Control", DemoDocument.avatarCacheControl), ("ETag", etag)]))
        }
        return DemoResponse(status: 200, fields: image.fields, body: image.body, isStored: true)
    }

    static func message(_ text: String) -> DemoJSON {
        .object(["message": .string(text), "documentation_url": .string("https://docs.github.com/rest")])
    }

    static let notFound = DemoDocument.json(message("Not Found"), tagged: false)
    static let methodNotAllowed = DemoDocument.json(message("Method Not Allowed"), tagged: false)
    static let validationFailed = DemoDocument.json(message("Validation Failed"), tagged: false)
    static let rateLimitExceeded = DemoDocument.json(message("API rate limit exceeded for 127.0.0.1."), tagged: false)
    static let secondaryRateLimit = DemoDocument.json(message("You have exceeded a secondary rate limit."), tagged: false)
    static let injectedFailure = DemoDocument.json(.object(["message": .string("Injected demo failure")]), tagged: false)

    /// Weak comparison, as GitHub applies it: `W/` ignored, `*` matches anything.
    static func matches(_ condition: String, etag: String) -> Bool {
        let strip = { (tag: Substring) -> Substring in tag.hasPrefix("W/") ? tag.dropFirst(2) : tag }
        return condition.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingWhitespace()
            return tag == "*" || strip(Substring(tag)) == strip(Substring(etag))
        }
    }
}

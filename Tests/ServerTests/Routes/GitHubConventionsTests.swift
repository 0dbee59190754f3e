// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import DemoUpstream
import Domain
import Foundation
import Streams
import XCTest
@testable import Server
import HTTP
import HTTPTestSupport
import NetCore

/// GitHub's documented conventions, over real sockets: the service against upstreams on
/// 127.0.0.1 that redirect, rate-limit and page as GitHub does.
final class GitHubConventionsTests: XCTestCase {
    /// An upstream whose answers a test scripts, recording each request's `Authorization`,
    /// `Accept-Encoding`, `traceparent` and `tracestate`.
    final class ScriptedUpstream {
        typealias Seen = (path: String, authorization: String?, acceptEncoding: String?, traceparent: String?, tracestate: String?)
        let server: TestServer
        private let seen = Locked<[Seen]>([])

        init(_ answer: @escaping @Sendable (Request, _ host: String) -> Response) throws {
            let seen = self.seen
            server = try TestServer(router: Router { request in
                seen.withLock {
                    $0.append((request.path, request.headers["Authorization"], request.headers["Accept-Encoding"], request.headers["traceparent"], request.headers["tracestate"]))
                }
                return .just(answer(request, request.headers["Host"] ?? "127.0.0.1"))
            })
        }

        var url: URL { URL(string: "http://127.0.0.1:\(server.port)")! }
        var requests: [Seen] { seen.withLock { $0 } }
    }

    static func json(_ status: Int, _ body: String, headers: HTTPHeaders = [:]) -> Response {
        var headers = headers
        headers.add(name: "Content-Type", value: "application/json")
        return Response(status: HTTPStatus(code: status), headers: headers, body: .bytes(Array(body.utf8)))
    }

    func testAvatarBehindARedirectIsFollowed() throws {
        let fixture = try UserAPIFixture(users: 10)
        let response = try fixture.get("/users/grace2/avatar")
        XCTAssertEqual(response.status, 200, response.bodyText)
        XCTAssertEqual(response.body, Identicon(login: "grace2").png())
        let users = try XCTUnwrap(try fixture.get("/users?limit=2").jsonArray)
        let avatar = try XCTUnwrap(users[1]["avatar"] as? [String: Any])
        XCTAssertEqual(avatar["upstreamUrl"] as? String, "\(fixture.demo!.baseURL!.absoluteString)/grace2.png")
        XCTAssertEqual(avatar["sha256"] as? String, MessageDigest.sha256.hex(Identicon(login: "grace2").png()))
    }

    func testAuthorizationGoesToTheAPIOriginOnlyNeverAcrossARedirectToAnotherPort() throws {
        let avatars = try ScriptedUpstream { _, _ in Response(status: .ok, headers: ["Content-Type": "image/png"], body: .bytes([1, 2, 3])) }
        let avatarURL = avatars.url.absoluteString
        let api = try ScriptedUpstream { request, host in
            switch request.path {
            case "/users/ada1": Self.json(200, #"{"login":"ada1","id":1,"avatar_url":"http://\#(host)/ada1.png"}"#)
            case "/ada1.png": Response(status: HTTPStatus(code: 302), headers: ["Location": "\(avatarURL)/u/1"])
            default: Self.json(404, #"{"message":"Not Found"}"#)
            }
        }
        let fixture = try UserAPIFixture(upstreamURL: api.url, token: "t0ken")
        let response = try fixture.get("/users/ada1/avatar")
        XCTAssertEqual(response.status, 200, response.bodyText)
        XCTAssertEqual(response.body, [1, 2, 3])
        XCTAssertEqual(api.requests.map(\.path), ["/users/ada1", "/ada1.png"])
        XCTAssertEqual(api.requests.map(\.authorization), ["Bearer t0ken", "Bearer t0ken"], "same origin: the token goes along")
        XCTAssertEqual(avatars.requests.map(\.path), ["/u/1"])
        XCTAssertEqual(avatars.requests.map(\.authorization), [nil], "another port is another origin")
    }

    static func userAndAvatar() throws -> ScriptedUpstream {
        try ScriptedUpstream { request, host in
            switch request.path {
            case "/users/ada1": Self.json(200, #"{"login":"ada1","id":1,"avatar_url":"http://\#(host)/ada1.png"}"#)
            case "/ada1.png": Response(status: .ok, headers: ["Content-Type": "image/png"], body: .bytes([1, 2, 3]))
            default: Self.json(404, #"{"message":"Not Found"}"#)
            }
        }
    }

    func testEveryUpstreamRequestAsksForGzipByDefault() throws {
        let api = try Self.userAndAvatar()
        let fixture = try UserAPIFixture(upstreamURL: api.url)
        XCTAssertEqual(try fixture.get("/users/ada1/avatar").status, 200)
        XCTAssertEqual(api.requests.map(\.acceptEncoding), ["gzip", "gzip"])
    }

    func testWithoutGzipNoUpstreamRequestAsksForIt() throws {
        let api = try Self.userAndAvatar()
        let fixture = try UserAPIFixture(upstreamURL: api.url, acceptsGzip: false)
        let response = try fixture.get("/users/ada1/avatar")
        XCTAssertEqual(response.status, 200, response.bodyText)
        XCTAssertEqual(response.body, [1, 2, 3])
        XCTAssertEqual(api.requests.map(\.path), ["/users/ada1", "/ada1.png"])
        XCTAssertEqual(api.requests.map(\.acceptEncoding), [nil, nil])
    }

    func testRedirectLoopStopsAfterFiveHopsWithA502NamingTheStage() throws {
        let api = try ScriptedUpstream { request, host in
            request.path == "/users/ada1"
                ? Self.json(200, #"{"login":"ada1","id":1,"avatar_url":"http://\#(host)/loop"}"#)
                : Response(status: HTTPStatus(code: 307), headers: ["Location": "/loop"])
        }
        let fixture = try UserAPIFixture(upstreamURL: api.url, retry: .none)
        let response = try fixture.get("/users/ada1/avatar")
        XCTAssertEqual(response.status, 502)
        XCTAssertEqual(api.requests.count, 1 + 6, "the user, the avatar and five redirects followed: \(api.requests.map(\.path)) \(response.bodyText)")
        let detail = try XCTUnwrap(response.bodyJSON?["detail"] as? String)
        XCTAssertTrue(detail.contains("the avatar of ada1"), detail)
        XCTAssertTrue(detail.contains("more than 5 redirects"), detail)
        XCTAssertFalse(detail.contains("retries"), detail)
    }

    func testSecondaryRateLimitBecomes503WithRetryAfter() throws {
        let api = try ScriptedUpstream { _, _ in
            Self.json(403, #"{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again."}"#, headers: ["Retry-After": "60"])
        }
        let fixture = try UserAPIFixture(upstreamURL: api.url)
        let response = try fixture.get("/users?limit=3")
        XCTAssertEqual(response.status, 503)
        XCTAssertEqual(response.header("Retry-After"), "60")
        XCTAssertEqual(api.requests.count, 1, "a 60 s wait is not spent inside the request")
        XCTAssertEqual(fixture.metrics.sample(#"upstream_requests_total{outcome="rate_limited"}"#), 1)
    }

    func testLong429Becomes503WithRetryAfterAndAShortOneIsRetried() async throws {
        let attempts = Locked(0)
        let api = try ScriptedUpstream { request, _ in
            if request.path == "/users/slow" { return Self.json(429, #"{"message":"Too Many Requests"}"#, headers: ["Retry-After": "60"]) }
            let attempt = attempts.withLock { count -> Int in
                count += 1
                return count
            }
            return attempt == 1
                ? Self.json(429, #"{"message":"Too Many Requests"}"#, headers: ["Retry-After": "1"])
                : Self.json(200, #"{"login":"quick","id":7,"avatar_url":"http://127.0.0.1:1/x"}"#)
        }
        let fixture = try UserAPIFixture(upstreamURL: api.url)
        let long = try fixture.get("/users/slow/avatar")
        XCTAssertEqual(long.status, 503)
        XCTAssertEqual(long.header("Retry-After"), "60")
        let detail = try XCTUnwrap(long.bodyJSON?["detail"] as? String)
        XCTAssertTrue(detail.contains("user slow"), detail)
        let user = try await fixture.services.client.user(login: "quick").first()
        XCTAssertEqual(user?.id, 7)
        XCTAssertEqual(attempts.withLock { $0 }, 2, "a 1 s wait is retried inside the request")
    }

    func testPrimaryRateLimitOfTheDemoBecomes503UntilTheReset() throws {
        let fixture = try UserAPIFixture(users: 10, rateLimit: 2, retry: .none)
        var statuses: [Int] = []
        var last: RawHTTPClient.Response?
        for _ in 0..<6 {
            let response = try fixture.get("/users/ada1")
            statuses.append(response.status)
            last = response
        }
        XCTAssertTrue(statuses.contains(503), "\(statuses)")
        let response = try XCTUnwrap(last)
        XCTAssertEqual(response.status, 503)
        let retryAfter = try XCTUnwrap(response.header("Retry-After").flatMap(Int.init))
        XCTAssertGreaterThan(retryAfter, 3000, "until the hour window resets")
    }

    func testReposArePagedToAllOf150() throws {
        let fixture = try UserAPIFixture(users: 30)
        let profile = try XCTUnwrap(try fixture.get("/users/barbara25").bodyJSON)
        let repos = try XCTUnwrap(profile["repos"] as? [String: Any])
        XCTAssertEqual(repos["count"] as? Int, 150)
        let directory = DemoDirectory(userCount: 30)
        let all = directory.repos(of: directory.user(id: 25)!)
        XCTAssertEqual(repos["stars"] as? Int, all.reduce(0) { $0 + ($1.stars ?? 0) }, "repos without stargazers_count count as 0")
        XCTAssertTrue(all.contains { $0.stars == nil }, "some repos leave the optional field out")
    }

    func testRepeatedRequestIsRevalidatedAndServedFromTheStoreOn304() throws {
        let fixture = try UserAPIFixture(users: 10, cacheBytes: 1 << 20)
        let first = try fixture.get("/users/ada1")
        let second = try fixture.get("/users/ada1")
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(second.bodyText, first.bodyText)
        let metrics = fixture.metrics
        XCTAssertEqual(metrics.sample(UpstreamMetrics.cacheMissesName), 2, "user and repos, first time")
        XCTAssertEqual(metrics.sample(UpstreamMetrics.cacheRevalidationsName), 2)
        XCTAssertEqual(metrics.sample(UpstreamMetrics.cacheHitsName), 2)
        XCTAssertEqual(fixture.demo!.upstream.statistics.notModified, 2)
    }

    func testConcurrentIdenticalRequestsMakeOneUpstreamRequest() throws {
        let fixture = try UserAPIFixture(users: 10, latency: .milliseconds(300))
        let clients = try (0..<8).map { _ in try RawHTTPClient(port: fixture.api.port, timeout: 10) }
        for client in clients { try client.send(UserAPIFixture.request("/users/ada1/avatar", headers: [:])) }
        let bodies = try clients.map { try $0.readResponse().body }
        XCTAssertEqual(Set(bodies.map { $0 }).count, 1)
        XCTAssertEqual(bodies.first, Identicon(login: "ada1").png())
        XCTAssertEqual(fixture.demo!.upstream.statistics.requests, 2, "one user lookup and one avatar for eight callers")
        XCTAssertEqual(fixture.metrics.sample(UpstreamMetrics.coalescedName), 14)
    }

    func testWithoutSingleFlightEachIdenticalRequestGoesUpstream() throws {
        let fixture = try UserAPIFixture(users: 10, latency: .milliseconds(300), singleFlight: false)
        let clients = try (0..<4).map { _ in try RawHTTPClient(port: fixture.api.port, timeout: 10) }
        for client in clients { try client.send(UserAPIFixture.request("/users/ada1/avatar", headers: [:])) }
        let bodies = try clients.map { try $0.readResponse().body }
        XCTAssertEqual(Set(bodies.map { $0 }).count, 1)
        XCTAssertEqual(fixture.demo!.upstream.statistics.requests, 8, "a user lookup and an avatar for each of four callers")
        XCTAssertEqual(fixture.metrics.sample(UpstreamMetrics.coalescedName), 0)
    }
}

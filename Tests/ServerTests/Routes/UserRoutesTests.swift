// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import DemoUpstream
import Domain
import Foundation
import Streams
import Synchronization
import XCTest
@testable import Server
import HTTP
import HTTPTesting
import HTTPTestSupport
import NetCore

final class UserRoutesTests: XCTestCase {
    func testUsersListsAPageWithAvatarMetadataInUpstreamOrder() throws {
        let fixture = try UserAPIFixture()
        let response = try fixture.get("/users?since=3&limit=5&concurrency=4")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8")
        let users = try XCTUnwrap(response.jsonArray)
        XCTAssertEqual(users.map { $0["id"] as? Int }, [4, 5, 6, 7, 8])
        let first = try XCTUnwrap(users.first)
        let avatar = try XCTUnwrap(first["avatar"] as? [String: Any])
        let png = Identicon(login: "edsger4").png()
        XCTAssertEqual(first["login"] as? String, "edsger4")
        XCTAssertEqual(avatar["url"] as? String, "/users/edsger4/avatar")
        XCTAssertEqual(avatar["upstreamUrl"] as? String, "http://127.0.0.1:\(fixture.demo!.avatarPort!)/u/4?v=4")
        XCTAssertEqual(avatar["contentType"] as? String, "image/png")
        XCTAssertEqual(avatar["bytes"] as? Int, png.count)
        XCTAssertEqual(avatar["sha256"] as? String, MessageDigest.sha256.hex(png))
        XCTAssertFalse(users[1].keys.contains("name"), "without profile=true there is no name, as in GitHub's list")
    }

    func testProfileTrueFillsNameAndProfileNullWhereTheUserHasNone() throws {
        let fixture = try UserAPIFixture()
        let users = try XCTUnwrap(try fixture.get("/users?since=3&limit=3&profile=true").jsonArray)
        let directory = DemoDirectory(userCount: 60)
        XCTAssertEqual(users.map { $0["name"] as? String }, (4...6).map { directory.user(id: $0)?.name })
        XCTAssertTrue(users[1]["name"] is NSNull, "user 5 has no name: null, not absent")
        let profile = try XCTUnwrap(users[0]["profile"] as? [String: Any])
        XCTAssertEqual(profile["location"] as? String, directory.user(id: 4)?.location)
        XCTAssertEqual(profile["publicRepos"] as? Int, directory.repos(of: directory.user(id: 4)!).count)
        XCTAssertTrue((users[2]["profile"] as? [String: Any])?["company"] is NSNull, "user 6 leaves company empty")
    }

    func testSerialAndParallelGiveTheSameList() throws {
        let fixture = try UserAPIFixture()
        let serial = try fixture.get("/users?limit=12&avatars=serial").bodyText
        let parallel = try fixture.get("/users?limit=12&avatars=parallel&concurrency=12").bodyText
        XCTAssertEqual(serial, parallel)
    }

    func testEmbedDataURIInlinesTheImage() throws {
        let fixture = try UserAPIFixture()
        let users = try XCTUnwrap(try fixture.get("/users?limit=1&embed=data-uri").jsonArray)
        let dataURI = try XCTUnwrap((users.first?["avatar"] as? [String: Any])?["dataURI"] as? String)
        XCTAssertEqual(dataURI, "data:image/png;base64," + Data(Identicon(login: "ada1").png()).base64EncodedString())
    }

    /// A route's own answer, before any upstream call: read in process (`RouterTestClient.service()`).
    func testInvalidQueryParametersAre400ProblemsNamingTheParameter() async throws {
        let service = RouterTestClient.service()
        for (target, parameter) in [
            ("/users?limit=0", "limit"), ("/users?limit=101", "limit"), ("/users?concurrency=65", "concurrency"),
            ("/users?avatars=sideways", "avatars"), ("/users?onAvatarError=ignore", "onAvatarError"),
            ("/users?embed=base64", "embed"), ("/users?since=-1", "since"), ("/users/stream?limit=abc", "limit"),
        ] {
            let response = try await service.execute(.get, target)
            XCTAssertEqual(response.status, .badRequest, target)
            XCTAssertEqual(response.headers["Content-Type"], "application/problem+json", target)
            XCTAssertTrue((response.bodyJSON?["detail"] as? String)?.contains("'\(parameter)'") ?? false, response.bodyText)
            XCTAssertEqual(response.bodyJSON?["title"] as? String, "Invalid query parameter", target)
        }
    }

    func testEveryRouteAnswersARepeatedQueryParameterWithTheSameProblem() async throws {
        let service = RouterTestClient.service()
        for (target, detail) in [
            ("/users?limit=5&limit=6", "Query parameter 'limit' must be given at most once, got '5', '6'"),
            ("/users/stream?avatars=serial&avatars=parallel", "Query parameter 'avatars' must be given at most once, got 'serial', 'parallel'"),
            ("/ticks?count=1&count=2", "Query parameter 'count' must be given at most once, got '1', '2'"),
            ("/events?kinds=end&kinds=error", "Query parameter 'kinds' must be given at most once, got 'end', 'error'"),
        ] {
            let response = try await service.execute(.get, target)
            XCTAssertEqual(response.status, .badRequest, target)
            XCTAssertEqual(response.bodyJSON?["title"] as? String, "Invalid query parameter", target)
            XCTAssertEqual(response.bodyJSON?["detail"] as? String, detail, target)
        }
    }

    func testProfileZipsUserAndRepoSummary() throws {
        let fixture = try UserAPIFixture()
        let response = try fixture.get("/users/grace2")
        XCTAssertEqual(response.status, 200)
        let body = try XCTUnwrap(response.bodyJSON)
        let user = try XCTUnwrap(body["user"] as? [String: Any])
        let repos = try XCTUnwrap(body["repos"] as? [String: Any])
        let directory = fixture.demo!.upstream.directory
        let expected = RepoSummary(repos: directory.repos(of: directory.user(id: 2)!).map {
            GitHubRepo(id: $0.id, name: $0.name, language: $0.language, stargazersCount: $0.stars)
        })
        XCTAssertEqual(user["login"] as? String, "grace2")
        XCTAssertEqual(repos["count"] as? Int, expected.count)
        XCTAssertEqual(repos["stars"] as? Int, expected.stars)
        XCTAssertEqual(repos["topLanguages"] as? [String], expected.topLanguages)
    }

    func testUnknownUserIs404Problem() throws {
        let fixture = try UserAPIFixture()
        for target in ["/users/nobody", "/users/nobody/avatar"] {
            let response = try fixture.get(target)
            XCTAssertEqual(response.status, 404, target)
            XCTAssertEqual(response.header("Content-Type"), "application/problem+json")
        }
    }

    func testAvatarServesThePNGWithAContentHashETag() throws {
        let fixture = try UserAPIFixture()
        let response = try fixture.get("/users/ada1/avatar")
        let png = Identicon(login: "ada1").png()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "image/png")
        XCTAssertEqual(response.body, png)
        XCTAssertEqual(response.header("ETag"), "\"\(MessageDigest.sha256.hex(png))\"")
    }

    func testMatchingIfNoneMatchIs304WithoutBody() throws {
        let fixture = try UserAPIFixture()
        let etag = try XCTUnwrap(try fixture.get("/users/ada1/avatar").header("ETag"))
        let response = try fixture.get("/users/ada1/avatar", headers: ["If-None-Match": etag])
        XCTAssertEqual(response.status, 304)
        XCTAssertEqual(response.header("ETag"), etag)
        XCTAssertTrue(response.body.isEmpty)
        XCTAssertEqual(try fixture.get("/users/ada1/avatar", headers: ["If-None-Match": "\"other\""]).status, 200)
    }

    func testThirtyPercentUpstreamFailuresStillAnswer200ThanksToRetries() throws {
        let fixture = try UserAPIFixture(failureRate: 0.3)
        let statuses = try (0..<20).map { _ in try fixture.get("/users?limit=10").status }
        XCTAssertEqual(statuses, Array(repeating: 200, count: 20))
        XCTAssertGreaterThan(fixture.metrics.sample("upstream_retries_total") ?? 0, 0)
    }

    func testUpstreamDownIs502WithinTheTimeout() throws {
        let fixture = try UserAPIFixture(upstreamURL: URL(string: "http://127.0.0.1:1")!)
        let started = ContinuousClock.now
        let response = try fixture.get("/users?limit=3")
        XCTAssertEqual(response.status, 502)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json")
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(2))
    }

    func testSlowUpstreamIs504AfterRetries() throws {
        let fixture = try UserAPIFixture(latency: .seconds(2), timeout: .milliseconds(200), retry: RetryPolicy(maxRetries: 1, baseDelay: .milliseconds(10)))
        let started = ContinuousClock.now
        let response = try fixture.get("/users/ada1")
        XCTAssertEqual(response.status, 504)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(1))
    }

    func testRateLimitedUpstreamIs503WithRetryAfter() throws {
        let limited = try TestServer(router: Router { _ in
            .just(Response(status: .forbidden, headers: ["Content-Type": "application/json", "X-RateLimit-Remaining": "0", "Retry-After": "42"], body: .bytes(Array(#"{"message":"API rate limit exceeded"}"#.utf8))))
        })
        let fixture = try UserAPIFixture(upstreamURL: URL(string: "http://127.0.0.1:\(limited.port)")!)
        let response = try fixture.get("/users/ada1")
        XCTAssertEqual(response.status, 503)
        XCTAssertEqual(response.header("Retry-After"), "42")
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json")
    }

    func testReadinessProbeFollowsUpstreamReachability() throws {
        let reachable = try UserAPIFixture()
        XCTAssertEqual(try first(reachable.services.isUpstreamReachable()), true)
        let unreachable = try UserAPIFixture(upstreamURL: URL(string: "http://127.0.0.1:1")!)
        XCTAssertEqual(try first(unreachable.services.isUpstreamReachable()), false)
    }

    func first<T: Sendable>(_ stream: some StreamType<T>) throws -> T? {
        let done = expectation(description: "first value")
        let value = Mutex<T?>(nil)
        let subscription = stream.watch { event in
            if case .data(let element) = event { value.withLock { $0 = $0 ?? element } }
            if event.isTerminal { done.fulfill() }
        }
        wait(for: [done], timeout: 5)
        subscription.dispose()
        return value.withLock { $0 }
    }
}

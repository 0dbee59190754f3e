// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTP
import NetCore
import Streams
import StreamsTesting
import XCTest
import Domain
@testable import DemoUpstream

final class DemoUpstreamTests: XCTestCase {
    func answer(_ target: String, upstream: DemoUpstream = DemoUpstream(configuration: .init(users: 10))) -> DemoResponse {
        upstream.answer(DemoRequest(target: target, host: "demo.test:1234"))
    }

    func users(in response: DemoResponse) throws -> [GitHubUser] {
        try JSONDecoder().decode([GitHubUser].self, from: Data(response.body))
    }

    func testUsersPageListsIdsAfterSinceAscending() throws {
        let response = answer("/users?since=2&per_page=3")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(try users(in: response).map(\.id), [3, 4, 5])
    }

    func testUsersPageLinksToTheNextPage() {
        let response = answer("/users?since=2&per_page=3")
        XCTAssertEqual(response.headers["Link"], "<http://demo.test:1234/users?since=5&per_page=3>; rel=\"next\"")
    }

    func testLastPageHasNoNextLink() {
        XCTAssertNil(answer("/users?since=7&per_page=3").headers["Link"])
    }

    func testAvatarUrlsPointBackAtTheHostTheClientUsed() throws {
        let first = try XCTUnwrap(try users(in: answer("/users?per_page=1")).first)
        XCTAssertEqual(first.avatarUrl, "http://demo.test:1234/u/1?v=4")
    }

    func testAvatarUrlsPointAtTheAvatarOriginOnceItListens() throws {
        let upstream = DemoUpstream(configuration: .init(users: 10))
        upstream.serveAvatars(onPort: 4321)
        let page = try users(in: answer("/users?per_page=2", upstream: upstream))
        XCTAssertEqual(page.map(\.avatarUrl), ["http://demo.test:4321/u/1?v=4", "http://demo.test:1234/grace2.png"])
    }

    func testSomeAvatarsRedirectToTheAvatarOrigin() {
        let upstream = DemoUpstream(configuration: .init(users: 10))
        upstream.serveAvatars(onPort: 4321)
        let response = answer("/grace2.png", upstream: upstream)
        XCTAssertEqual(response.status, 302)
        XCTAssertEqual(response.headers["Location"], "http://demo.test:4321/u/2?v=4")
    }

    func testListItemsCarryNoNameAsGitHubsDoNot() {
        let body = String(decoding: answer("/users?per_page=3").body, as: UTF8.self)
        XCTAssertFalse(body.contains("\"name\""), body)
    }

    func testAnswersCarryAWeakETagAnd304WhenItMatches() throws {
        let first = answer("/users/ada1")
        let etag = try XCTUnwrap(first.headers["ETag"])
        XCTAssertTrue(etag.hasPrefix("W/\""), etag)
        let again = DemoUpstream(configuration: .init(users: 10)).answer(DemoRequest(target: "/users/ada1", host: "demo.test:1234", headers: ["If-None-Match": etag]))
        XCTAssertEqual(again.status, 304)
        XCTAssertEqual(again.body, [])
        XCTAssertEqual(again.headers["ETag"], etag)
    }

    func testAnswersCarryRateLimitHeaders() {
        let response = answer("/users")
        XCTAssertEqual(response.headers["X-RateLimit-Limit"], "5000")
        XCTAssertEqual(response.headers["X-RateLimit-Remaining"], "4999")
        XCTAssertEqual(response.headers["X-RateLimit-Used"], "1")
        XCTAssertNotNil(response.headers["X-RateLimit-Reset"].flatMap(Int.init))
    }

    func testRateLimitRefusesWith403AndResetHeadersOnceSpent() throws {
        let upstream = DemoUpstream(configuration: .init(users: 10, rateLimit: 30))
        let statuses = (0..<40).map { _ in answer("/users/ada1", upstream: upstream).status }
        XCTAssertEqual(statuses.filter { $0 == 200 }.count, 30, "the hour's budget")
        XCTAssertEqual(statuses.suffix(5), [403, 403, 403, 403, 403])
        let refused = answer("/users/ada1", upstream: upstream)
        XCTAssertEqual(refused.headers["X-RateLimit-Remaining"], "0")
        let reset = try XCTUnwrap(refused.headers["X-RateLimit-Reset"].flatMap(Double.init))
        XCTAssertGreaterThan(reset, Date().timeIntervalSince1970 + 3500)
    }

    func testRateLimitAlsoThrottlesSomeRequestsWith429AndRetryAfter() {
        let upstream = DemoUpstream(configuration: .init(users: 10, rateLimit: 1000))
        let throttled = (0..<200).map { _ in answer("/users", upstream: upstream) }.filter { $0.status == 429 }
        XCTAssertFalse(throttled.isEmpty)
        XCTAssertTrue(throttled.allSatisfy { $0.headers["Retry-After"] == "1" })
    }

    func testRateLimitEndpointIsFree() throws {
        let upstream = DemoUpstream(configuration: .init(users: 10, rateLimit: 1))
        _ = answer("/users", upstream: upstream)
        for _ in 0..<3 { XCTAssertEqual(answer("/rate_limit", upstream: upstream).status, 200) }
        let body = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(answer("/rate_limit", upstream: upstream).body)) as? [String: Any])
        let core = try XCTUnwrap((body["resources"] as? [String: Any])?["core"] as? [String: Any])
        XCTAssertEqual(core["remaining"] as? Int, 0)
        XCTAssertEqual(core["limit"] as? Int, 1)
    }

    func testReposArePagedWithLinks() throws {
        let upstream = DemoUpstream(configuration: .init(users: 30))
        let first = answer("/users/barbara25/repos?per_page=100", upstream: upstream)
        XCTAssertEqual(try JSONDecoder().decode([GitHubRepo].self, from: Data(first.body)).count, 100)
        XCTAssertEqual(
            first.headers["Link"],
            "<http://demo.test:1234/users/barbara25/repos?per_page=100&page=2>; rel=\"next\", <http://demo.test:1234/users/barbara25/repos?per_page=100&page=2>; rel=\"last\"")
        let second = answer("/users/barbara25/repos?per_page=100&page=2", upstream: upstream)
        XCTAssertEqual(try JSONDecoder().decode([GitHubRepo].self, from: Data(second.body)).count, 50)
        XCTAssertFalse(second.headers["Link"]?.contains("rel=\"next\"") ?? true)
    }

    func testUserWithoutNameIsSentWithNullName() {
        let body = String(decoding: answer("/users/ken10").body, as: UTF8.self)
        XCTAssertTrue(body.contains("\"name\":null"), body)
    }

    func testUnknownUserIs404() {
        XCTAssertEqual(answer("/users/nobody").status, 404)
        XCTAssertEqual(answer("/users/nobody/repos").status, 404)
        XCTAssertEqual(answer("/nobody.png").status, 404)
        XCTAssertEqual(answer("/u/999").status, 404)
    }

    func testReposAreGitHubShaped() throws {
        let response = answer("/users/ada1/repos")
        XCTAssertEqual(response.status, 200)
        let repos = try JSONDecoder().decode([GitHubRepo].self, from: Data(response.body))
        let directory = DemoDirectory(userCount: 10)
        XCTAssertEqual(repos.count, directory.repos(of: directory.user(id: 1)!).count)
    }

    func testAvatarIsAPNGIdenticonOfTheLogin() {
        let response = answer("/u/2")
        XCTAssertEqual(response.headers["Content-Type"], "image/png")
        XCTAssertEqual(response.body, Identicon(login: "grace2").png())
    }

    func testBadPaginationParameterIs422() {
        XCTAssertEqual(answer("/users?since=abc").status, 422)
    }

    func testFailureRateZeroNeverFails() {
        let upstream = DemoUpstream(configuration: .init(users: 10, failureRate: 0))
        XCTAssertTrue((0..<200).allSatisfy { _ in answer("/users", upstream: upstream).status == 200 })
    }

    func testFailureRateFailsRoughlyThatFractionWithStatusesAndCuts() {
        let upstream = DemoUpstream(configuration: .init(users: 10, failureRate: 0.3))
        let answers = (0..<1000).map { _ in answer("/users/ada1", upstream: upstream) }
        let failed = answers.filter { $0.status != 200 || $0.truncatedAfter != nil }
        XCTAssertEqual(Double(failed.count) / 1000, 0.3, accuracy: 0.05)
        XCTAssertTrue(failed.contains { $0.status == 500 })
        XCTAssertTrue(failed.contains { $0.status == 503 })
        XCTAssertTrue(failed.contains { $0.truncatedAfter != nil && $0.status == 200 })
    }

    func testFailuresAreReproducibleForTheSameSeed() {
        let statuses = { (upstream: DemoUpstream) in (0..<100).map { _ in self.answer("/users", upstream: upstream).status } }
        XCTAssertEqual(
            statuses(DemoUpstream(configuration: .init(users: 10, failureRate: 0.3, seed: 7))),
            statuses(DemoUpstream(configuration: .init(users: 10, failureRate: 0.3, seed: 7))))
    }

    func testLatencyDelaysTheAnswerOnTheScheduler() {
        let scheduler = TestScheduler()
        let upstream = DemoUpstream(configuration: .init(users: 10, latency: .milliseconds(50)), scheduler: scheduler)
        let recorder = EventRecorder<DemoResponse>()
        recorder.watch(upstream.respond(to: DemoRequest(target: "/users")))
        scheduler.advance(by: .milliseconds(49))
        XCTAssertTrue(recorder.events.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(recorder.values.map(\.status), [200])
        XCTAssertTrue(recorder.ended)
    }

    func testDisposingBeforeTheLatencyCancelsTheAnswer() {
        let scheduler = TestScheduler()
        let upstream = DemoUpstream(configuration: .init(users: 10, latency: .milliseconds(50)), scheduler: scheduler)
        let recorder = EventRecorder<DemoResponse>()
        recorder.watch(upstream.respond(to: DemoRequest(target: "/users"))).dispose()
        scheduler.advance(by: .seconds(1))
        XCTAssertTrue(recorder.events.isEmpty)
    }

    func testAnHTTPResponseWithoutLatencyIsAnsweredWhenAsked() {
        let upstream = DemoUpstream(configuration: .init(users: 10))
        let stream = upstream.httpResponse(
            to: DemoRequest(target: "/users/ada1"), acceptEncoding: nil, encodings: DemoGzipVariants(compressionMinimumBytes: 256))
        XCTAssertEqual(upstream.statistics.requests, 1, "made before anyone watches")
        let recorder = EventRecorder<Response>()
        recorder.watch(stream)
        XCTAssertEqual(recorder.values.map(\.status.code), [200])
        XCTAssertTrue(recorder.ended)
    }

    func testAnHTTPResponseWithLatencyIsAnsweredWhenWatchedAndDue() {
        let scheduler = TestScheduler()
        let upstream = DemoUpstream(configuration: .init(users: 10, latency: .milliseconds(50)), scheduler: scheduler)
        let recorder = EventRecorder<Response>()
        let stream = upstream.httpResponse(
            to: DemoRequest(target: "/users/ada1"), acceptEncoding: "gzip", encodings: DemoGzipVariants(compressionMinimumBytes: 256))
        XCTAssertEqual(upstream.statistics.requests, 0)
        recorder.watch(stream)
        scheduler.advance(by: .milliseconds(49))
        XCTAssertTrue(recorder.events.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(recorder.values.map { $0.headers["Content-Encoding"] }, ["gzip"])
        XCTAssertEqual(upstream.statistics.requests, 1)
    }

    // MARK: Stored answers

    /// An answer's fields without the rate limit's, whose counts change with every answer.
    func ownFields(_ response: DemoResponse) -> [String] {
        response.fields.filter { !$0.name.hasPrefix("X-RateLimit-") }.map { "\($0.name): \($0.value)" }
    }

    func testAStoredAnswerIsByteForByteWhatAFreshUpstreamAnswers() {
        let upstream = DemoUpstream(configuration: .init(users: 30))
        upstream.serveAvatars(onPort: 4321)
        for target in ["/users?since=20&per_page=3", "/users/barbara25", "/users/barbara25/repos?per_page=100&page=2", "/u/25"] {
            _ = answer(target, upstream: upstream)
            let stored = answer(target, upstream: upstream)
            let fresh = DemoUpstream(configuration: .init(users: 30))
            fresh.serveAvatars(onPort: 4321)
            let first = answer(target, upstream: fresh)
            XCTAssertEqual(stored.status, 200, target)
            XCTAssertEqual(stored.body, first.body, target)
            XCTAssertEqual(ownFields(stored), ownFields(first), target)
            XCTAssertTrue(stored.isStored, target)
        }
    }

    func testAStoredAnswerStillCountsAgainstTheRateLimit() {
        let upstream = DemoUpstream(configuration: .init(users: 10))
        let used = (0..<3).map { _ in answer("/users?per_page=2", upstream: upstream).headers["X-RateLimit-Used"] }
        XCTAssertEqual(used, ["1", "2", "3"])
    }

    func testAStoredPageStillAnswers304ToItsETag() throws {
        let upstream = DemoUpstream(configuration: .init(users: 10))
        _ = answer("/users?per_page=2", upstream: upstream)
        let etag = try XCTUnwrap(answer("/users?per_page=2", upstream: upstream).headers["ETag"])
        let again = upstream.answer(DemoRequest(target: "/users?per_page=2", host: "demo.test:1234", headers: ["If-None-Match": etag]))
        XCTAssertEqual(again.status, 304)
        XCTAssertEqual(again.headers["ETag"], etag)
        XCTAssertEqual(again.body, [])
        XCTAssertEqual(upstream.statistics.notModified, 1)
    }

    func testStoredPagesAreKeptApartByTheHostTheClientUsed() throws {
        let upstream = DemoUpstream(configuration: .init(users: 10))
        let one = upstream.answer(DemoRequest(target: "/users?per_page=1", host: "one.test"))
        let two = upstream.answer(DemoRequest(target: "/users?per_page=1", host: "two.test"))
        XCTAssertEqual(try users(in: one).map(\.avatarUrl), ["http://one.test/u/1?v=4"])
        XCTAssertEqual(try users(in: two).map(\.avatarUrl), ["http://two.test/u/1?v=4"])
        XCTAssertEqual(two.headers["Link"], "<http://two.test/users?since=1&per_page=1>; rel=\"next\"")
    }

    func testANegativeSinceListsFromTheFirstUserAsZeroDoes() throws {
        let upstream = DemoUpstream(configuration: .init(users: 10))
        let zero = answer("/users?since=0&per_page=2", upstream: upstream)
        let negative = answer("/users?since=-5&per_page=2", upstream: upstream)
        XCTAssertEqual(try users(in: negative).map(\.id), [1, 2])
        XCTAssertEqual(negative.body, zero.body)
    }

    func testAvatarCarriesAStrongETagOfItsPNGAnd304WhenItMatches() throws {
        let upstream = DemoUpstream(configuration: .init(users: 10))
        let first = answer("/u/3", upstream: upstream)
        let etag = try XCTUnwrap(first.headers["ETag"])
        XCTAssertEqual(etag, "\"\(MessageDigest.sha256.hex(Identicon(login: "alan3").png()).prefix(32))\"")
        let again = upstream.answer(DemoRequest(target: "/u/3", headers: ["If-None-Match": etag]))
        XCTAssertEqual(again.status, 304)
        XCTAssertEqual(again.fields, ["Cache-Control": "max-age=300", "ETag": etag])
    }

    /// The demo has always sent its fields sorted by name; stored answers keep that order.
    func testEveryKindOfAnswerHasItsFieldsInNameOrder() throws {
        let upstream = DemoUpstream(configuration: .init(users: 30, rateLimit: 1000))
        upstream.serveAvatars(onPort: 4321)
        var answers = ["/users?per_page=3", "/users/ada1", "/users/barbara25/repos?page=2", "/u/2", "/grace2.png", "/nobody", "/rate_limit", "/users?since=x"]
            .map { answer($0, upstream: upstream) }
        let etag = try XCTUnwrap(answers[0].headers["ETag"])
        answers.append(upstream.answer(DemoRequest(target: "/users?per_page=3", host: "demo.test:1234", headers: ["If-None-Match": etag])))
        answers.append(upstream.answer(DemoRequest(method: "POST", target: "/users")))
        answers += (0..<100).map { _ in answer("/users", upstream: upstream) }.filter { $0.status == 429 }.prefix(1)
        XCTAssertEqual(Set(answers.map(\.status)), [200, 302, 304, 404, 405, 422, 429])
        for response in answers {
            let names = response.fields.map(\.name)
            XCTAssertEqual(names, names.sorted(), "\(response.status)")
        }
    }

    func testInjectedFailuresAnswerWithTheirOwnBodyAndTheRateLimit() throws {
        let upstream = DemoUpstream(configuration: .init(users: 10, failureRate: 1))
        let failed = (0..<20).map { _ in answer("/users/ada1", upstream: upstream) }.filter { $0.status >= 500 }
        let first = try XCTUnwrap(failed.first)
        XCTAssertEqual(String(decoding: first.body, as: UTF8.self), #"{"message":"Injected demo failure"}"#)
        XCTAssertEqual(first.fields.map(\.name).prefix(2), ["Content-Type", "X-RateLimit-Limit"])
    }
}

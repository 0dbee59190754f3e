import Foundation
import Streams
import StreamsTesting
import XCTest
@testable import Domain

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
        XCTAssertEqual(first.avatarUrl, "http://demo.test:1234/avatars/ada1.png")
    }

    func testUserWithoutNameIsSentWithNullName() {
        let body = String(decoding: answer("/users/ken10").body, as: UTF8.self)
        XCTAssertTrue(body.contains("\"name\":null"), body)
    }

    func testUnknownUserIs404() {
        XCTAssertEqual(answer("/users/nobody").status, 404)
        XCTAssertEqual(answer("/users/nobody/repos").status, 404)
        XCTAssertEqual(answer("/avatars/nobody.png").status, 404)
    }

    func testReposAreGitHubShaped() throws {
        let response = answer("/users/ada1/repos")
        XCTAssertEqual(response.status, 200)
        let repos = try JSONDecoder().decode([GitHubRepo].self, from: Data(response.body))
        let directory = DemoDirectory(userCount: 10)
        XCTAssertEqual(repos.count, directory.repos(of: directory.user(id: 1)!).count)
    }

    func testAvatarIsAPNGIdenticonOfTheLogin() {
        let response = answer("/avatars/grace2.png")
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
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import NetCore
import Streams
import StreamsTesting
import XCTest
@testable import Domain
@testable import DemoUpstream

final class UsersWithAvatarsPipelineTests: XCTestCase {
    let scheduler = TestScheduler()

    func pipeline(latency: Duration = .milliseconds(50), failureRate: Double = 0, retries: Int = 3) -> UsersWithAvatarsPipeline {
        let upstream = DemoUpstream(configuration: .init(users: 40, latency: latency, failureRate: failureRate), scheduler: scheduler)
        return UsersWithAvatarsPipeline(client: client(DemoUpstreamTransport(upstream: upstream), retries: retries))
    }

    func client(_ transport: any UpstreamTransport, retries: Int = 3) -> GitHubClient {
        GitHubClient(
            configuration: .init(baseURL: URL(string: "http://demo.test")!, timeout: .seconds(2), retry: RetryPolicy(maxRetries: retries, baseDelay: .milliseconds(10))),
            transport: transport, scheduler: scheduler, metrics: UpstreamMetrics())
    }

    func testSerialModeFetchesOneAvatarAtATime() {
        let recorder = EventRecorder<[UserWithAvatar]>()
        recorder.watch(pipeline().list(UsersQuery(limit: 5, avatars: .serial)))
        // 50 ms for the page, then five avatars one after another, grace2's behind a redirect (two hops).
        scheduler.advance(by: .milliseconds(349))
        XCTAssertFalse(recorder.isTerminated)
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(recorder.values.first?.count, 5)
        XCTAssertTrue(recorder.ended)
    }

    func testParallelModeOverlapsUpToTheConcurrency() {
        let recorder = EventRecorder<[UserWithAvatar]>()
        recorder.watch(pipeline().list(UsersQuery(limit: 5, avatars: .parallel, concurrency: 2)))
        scheduler.advance(by: .milliseconds(199))
        XCTAssertFalse(recorder.isTerminated)
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(recorder.values.first?.count, 5)
    }

    func testParallelListKeepsUpstreamOrder() {
        let recorder = EventRecorder<[UserWithAvatar]>()
        recorder.watch(pipeline(latency: .zero).list(UsersQuery(since: 10, limit: 8, concurrency: 8)))
        scheduler.run()
        XCTAssertEqual(recorder.values.first?.map(\.id), Array(11...18))
    }

    func testAvatarMetadataDescribesTheIdenticon() throws {
        let recorder = EventRecorder<[UserWithAvatar]>()
        recorder.watch(pipeline(latency: .zero).list(UsersQuery(limit: 1)))
        scheduler.run()
        let user = try XCTUnwrap(recorder.values.first?.first)
        let png = Identicon(login: "ada1").png()
        XCTAssertEqual(user.login, "ada1")
        XCTAssertEqual(user.avatar.url, "/users/ada1/avatar")
        XCTAssertEqual(user.avatar.upstreamUrl, "http://demo.test/u/1?v=4")
        XCTAssertEqual(user.avatar.contentType, "image/png")
        XCTAssertEqual(user.avatar.bytes, png.count)
        XCTAssertEqual(user.avatar.sha256, MessageDigest.sha256.hex(png))
        XCTAssertNil(user.avatar.dataURI)
    }

    func testDataURIEmbedsTheImageInBase64() throws {
        let recorder = EventRecorder<[UserWithAvatar]>()
        recorder.watch(pipeline(latency: .zero).list(UsersQuery(limit: 1, embed: .dataURI)))
        scheduler.run()
        let dataURI = try XCTUnwrap(recorder.values.first?.first?.avatar.dataURI)
        XCTAssertEqual(dataURI, "data:image/png;base64," + Data(Identicon(login: "ada1").png()).base64EncodedString())
    }

    func testWithoutProfileTheListHasNoNamesAsInGitHubsList() throws {
        let recorder = EventRecorder<[UserWithAvatar]>()
        recorder.watch(pipeline(latency: .zero).list(UsersQuery(limit: 2)))
        scheduler.run()
        let users = try XCTUnwrap(recorder.values.first)
        XCTAssertEqual(users.map(\.name), [nil, nil])
        XCTAssertEqual(users.map(\.profile), [nil, nil])
    }

    func testProfileZipsEachUsersAvatarWithTheirPublicProfile() throws {
        let recorder = EventRecorder<[UserWithAvatar]>()
        recorder.watch(pipeline(latency: .zero).list(UsersQuery(limit: 5, profile: true)))
        scheduler.run()
        let users = try XCTUnwrap(recorder.values.first)
        let directory = DemoDirectory(userCount: 40)
        XCTAssertEqual(users.map(\.name), (1...5).map { directory.user(id: $0)?.name })
        XCTAssertEqual(users[0].profile?.company, directory.user(id: 1)?.company)
        XCTAssertEqual(users[0].profile?.publicRepos, directory.repos(of: directory.user(id: 1)!).count)
        XCTAssertEqual(users.map(\.avatar.placeholder), [nil, nil, nil, nil, nil])
    }

    func testProfileAndAvatarAreFetchedInTheSameParallelStage() {
        let recorder = EventRecorder<[UserWithAvatar]>()
        // ada1's avatar is one request away; both of ada1's requests overlap: 50 ms page + 50 ms.
        recorder.watch(pipeline().list(UsersQuery(limit: 1, profile: true)))
        scheduler.advance(by: .milliseconds(99))
        XCTAssertFalse(recorder.isTerminated)
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(recorder.values.first?.first?.name, DemoDirectory(userCount: 40).user(id: 1)?.name)
    }

    func testRetriesRideOutAThirtyPercentFailureRate() {
        let recorder = EventRecorder<[UserWithAvatar]>()
        recorder.watch(pipeline(latency: .zero, failureRate: 0.3, retries: 6).list(UsersQuery(limit: 30)))
        scheduler.run()
        XCTAssertEqual(recorder.values.first?.count, 30)
    }

    func testTraceRecordsTheStagesOfARun() {
        let hub = PipelineEventHub()
        let trace = PipelineTrace(hub: hub, pipeline: "users", requestId: "r1")
        pipeline(latency: .zero).list(UsersQuery(limit: 2), trace: trace).watch { _ in }
        scheduler.run()
        let stages = hub.recorded(after: 0).compactMap { delivery -> String? in
            if case .event(let event) = delivery { return "\(event.stage):\(event.kind.rawValue)" }
            return nil
        }
        XCTAssertEqual(stages.first, "list:subscribe")
        XCTAssertTrue(stages.contains("users:subscribe"))
        XCTAssertEqual(stages.filter { $0 == "avatar:end" }.count, 2)
        XCTAssertEqual(stages.last, "list:end")
    }

    func testAListWatchedOnlyUntilItArrivesStillEndsItsLaneWithEndNotDispose() {
        let hub = PipelineEventHub()
        let trace = PipelineTrace(hub: hub, pipeline: "users", requestId: "r1")
        // As the HTTP server does: it stops watching once it has the answer.
        pipeline(latency: .zero).list(UsersQuery(limit: 2), trace: trace).take(1).watch { _ in }
        scheduler.run()
        let list = hub.recorded(after: 0).compactMap { delivery -> String? in
            if case .event(let event) = delivery, event.stage == "list" { return event.kind.rawValue }
            return nil
        }
        XCTAssertEqual(list, ["subscribe", "data", "end"])
    }
}

final class AvatarErrorPolicyTests: XCTestCase {
    let scheduler = TestScheduler()

    /// A page of two users whose first avatar answers 404 (never retried).
    func run(_ policy: UsersQuery.AvatarErrorPolicy) -> (EventRecorder<AvatarOutcome>, EventRecorder<[UserWithAvatar]>) {
        let page = #"[{"login":"ada1","id":1,"avatar_url":"http://demo.test/a/1","name":null},{"login":"grace2","id":2,"avatar_url":"http://demo.test/a/2","name":"Grace"}]"#
        let png = Identicon(login: "grace2").png()
        func steps() -> [ScriptedTransport.Step] {
            [
                .respond(UpstreamResponse(status: 200, body: Array(page.utf8))),
                .respond(UpstreamResponse(status: 404)),
                .respond(UpstreamResponse(status: 200, headers: ["content-type": "image/png"], body: png)),
            ]
        }
        let make = { (transport: ScriptedTransport) in
            UsersWithAvatarsPipeline(client: GitHubClient(
                configuration: .init(baseURL: URL(string: "http://demo.test")!), transport: transport,
                scheduler: self.scheduler, metrics: UpstreamMetrics()))
        }
        let query = UsersQuery(limit: 2, avatars: .serial, onAvatarError: policy)
        let outcomes = EventRecorder<AvatarOutcome>()
        outcomes.watch(make(ScriptedTransport(steps())).outcomes(query))
        let list = EventRecorder<[UserWithAvatar]>()
        list.watch(make(ScriptedTransport(steps())).list(query))
        scheduler.run()
        return (outcomes, list)
    }

    func testFailPolicyFailsTheWholeList() {
        let (_, list) = run(.fail)
        XCTAssertEqual(list.error as? UpstreamFailure, UpstreamFailure(.status(404, retryAfterSeconds: nil), stage: .avatar("ada1")))
    }

    func testPlaceholderPolicySubstitutesAMarkedPlaceholder() throws {
        let (_, list) = run(.placeholder)
        let users = try XCTUnwrap(list.values.first)
        XCTAssertEqual(users.map(\.login), ["ada1", "grace2"])
        XCTAssertEqual(users[0].avatar.placeholder, true)
        XCTAssertEqual(users[0].avatar.sha256, MessageDigest.sha256.hex(PlaceholderAvatar.image.bytes))
        XCTAssertNil(users[1].avatar.placeholder)
    }

    func testSkipPolicyLeavesTheUserOutAndReportsIt() {
        let (outcomes, list) = run(.skip)
        XCTAssertEqual(list.values.first?.map(\.login), ["grace2"])
        XCTAssertEqual(
            outcomes.values.first?.result,
            .skipped(login: "ada1", error: UpstreamFailure(.status(404, retryAfterSeconds: nil), stage: .avatar("ada1"))))
    }
}

final class ProfilePipelineTests: XCTestCase {
    let scheduler = TestScheduler()

    func profilePipeline(latency: Duration = .zero) -> (ProfilePipeline, DemoUpstream) {
        let upstream = DemoUpstream(configuration: .init(users: 40, latency: latency), scheduler: scheduler)
        let client = GitHubClient(
            configuration: .init(baseURL: URL(string: "http://demo.test")!), transport: DemoUpstreamTransport(upstream: upstream),
            scheduler: scheduler, metrics: UpstreamMetrics())
        return (ProfilePipeline(client: client), upstream)
    }

    func testProfileZipsTheUserWithTheirRepoSummary() throws {
        let (pipeline, upstream) = profilePipeline()
        let recorder = EventRecorder<UserProfile>()
        recorder.watch(pipeline.profile(login: "grace2"))
        scheduler.run()
        let profile = try XCTUnwrap(recorder.values.first)
        let repos = upstream.directory.repos(of: upstream.directory.user(id: 2)!)
        XCTAssertEqual(profile.user.login, "grace2")
        XCTAssertEqual(profile.user.avatarUrl, "/users/grace2/avatar")
        XCTAssertEqual(profile.repos.count, repos.count)
        XCTAssertEqual(profile.repos.stars, repos.reduce(0) { $0 + ($1.stars ?? 0) })
        XCTAssertTrue(recorder.ended)
    }

    func testUserAndReposAreFetchedConcurrently() {
        let (pipeline, _) = profilePipeline(latency: .milliseconds(50))
        let recorder = EventRecorder<UserProfile>()
        recorder.watch(pipeline.profile(login: "grace2"))
        scheduler.advance(by: .milliseconds(50))
        XCTAssertEqual(recorder.values.count, 1)
    }

    func testUnknownUserFailsWithNotFound() {
        let (pipeline, _) = profilePipeline()
        let recorder = EventRecorder<UserProfile>()
        recorder.watch(pipeline.profile(login: "nobody"))
        scheduler.run()
        XCTAssertEqual(recorder.error as? UpstreamFailure, UpstreamFailure(.status(404, retryAfterSeconds: nil), stage: .user("nobody")))
    }

    func testRepoSummaryRanksLanguagesByCountThenName() {
        let repos = [("Swift", 3), ("Go", 1), ("Swift", 2), ("C", 0), ("Go", 4), (nil, 5), ("Rust", 0)].enumerated().map {
            GitHubRepo(id: $0.offset, name: "r\($0.offset)", language: $0.element.0, stargazersCount: $0.element.1)
        }
        XCTAssertEqual(RepoSummary(repos: repos), RepoSummary(count: 7, stars: 15, topLanguages: ["Go", "Swift", "C"]))
    }
}

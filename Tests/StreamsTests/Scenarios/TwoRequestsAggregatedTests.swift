// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// Two requests aggregated: a user request and a friends request run together and
/// `zip` pairs their answers into one profile; if either fails, the profile fails once.
final class TwoRequestsAggregatedTests: XCTestCase {
    private struct Profile: Equatable, Sendable {
        let user: String
        let friends: [String]
    }

    private struct RequestFailed: Error {}

    private func profile(user: some StreamType<String>, friends: some StreamType<[String]>) -> DataStream<Profile> {
        DataStream.zip(user, friends).map { user, friends in Profile(user: user, friends: friends) }
    }

    func testBothAnswersGiveOneCombinedValueWhenTheSlowerArrives() {
        let scheduler = TestScheduler()
        let user = scheduler.coldStream([.at(120, .data("octocat")), .at(120, .end)])
        let friends = scheduler.coldStream([.at(300, .data(["hubot", "monalisa"])), .at(300, .end)])
        let (recorder, _) = scheduler.record(profile(user: user, friends: friends))
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [
            .at(300, .data(Profile(user: "octocat", friends: ["hubot", "monalisa"]))), .at(300, .end),
        ])
    }

    func testAFailingRequestFailsTheProfileAtOnceAndCancelsTheOther() {
        let scheduler = TestScheduler()
        let user = scheduler.coldStream([Recorded<String>.at(100, .error(RequestFailed()))])
        let friends = scheduler.coldStream([.at(300, .data(["hubot"])), .at(300, .end)])
        let (recorder, _) = scheduler.record(profile(user: user, friends: friends))
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [.at(100, .error(RequestFailed()))])
        XCTAssertEqual(scheduler.pendingCount, 0, "the friends request is cancelled")
    }

    func testWhenBothRequestsFailTheProfileFailsOnlyOnce() {
        let scheduler = TestScheduler()
        let user = scheduler.coldStream([Recorded<String>.at(100, .error(RequestFailed()))])
        let friends = scheduler.coldStream([Recorded<[String]>.at(100, .error(RequestFailed()))])
        let (recorder, _) = scheduler.record(profile(user: user, friends: friends))
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [.at(100, .error(RequestFailed()))])
    }

    func testTheRequestsRunAtTheSameTimeNotOneAfterTheOther() {
        let scheduler = TestScheduler()
        let user = scheduler.coldStream([.at(200, .data("octocat")), .at(200, .end)])
        let friends = scheduler.coldStream([.at(200, .data(["hubot"])), .at(200, .end)])
        let (recorder, _) = scheduler.record(profile(user: user, friends: friends))
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events.first?.time, 200)
    }
}

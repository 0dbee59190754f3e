// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import Streams
import StreamsTesting
import XCTest

/// The StreamLibrary thesis's chapter-6 snippets, as a user would test them.
final class ThesisChapterSixTests: XCTestCase {
    /// The welcome text follows the signed-in user's name, which has a current value.
    func testTheWelcomeTextFollowsTheUsersName() {
        let scheduler = TestScheduler()
        let name = ValueStreamer("guest")
        let (recorder, _) = scheduler.record(name.map { "Welcome, \($0)!" })
        scheduler.at(100) { name.data("Ada") }
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [.data(0, "Welcome, guest!"), .data(100, "Welcome, Ada!")])
    }

    /// Loading starts at once and again on every tap of refresh; a tap while a load
    /// is running replaces it.
    func testTheRefreshTriggerReloadsAndATapCancelsTheLoadInFlight() {
        let scheduler = TestScheduler()
        let load = scheduler.coldStream([.data(100, ["news"]), .end(100)])
        let taps = scheduler.hotStream([.data(250, ()), .data(450, ()), .data(500, ())])
        let recorder = scheduler.start { taps.startWith(()).redirectLatest { load } }
        XCTAssertEqual(recorder.values.count, 2)
        XCTAssertEqual(recorder.events.map(\.time), [350, 600])
        XCTAssertEqual(load.subscriptions, [
            SubscriptionSpan(200, 250), SubscriptionSpan(250, 350), SubscriptionSpan(450, 500), SubscriptionSpan(500, 600),
        ])
    }

    private struct Profile: Decodable, Equatable, Sendable {
        let login: String
    }

    /// Bytes are decoded; a body that does not decode ends in a placeholder.
    func testDecodeThenRecover() {
        let scheduler = TestScheduler()
        let bodies = scheduler.coldStream([
            .data(100, Data(#"{"login":"ada"}"#.utf8)), .data(200, Data("not json".utf8)), .end(300),
        ])
        let recorder = scheduler.start {
            bodies.map { try JSONDecoder().decode(Profile.self, from: $0) }.recover(Profile(login: "unknown"))
        }
        XCTAssertEqual(recorder.events, [.data(300, Profile(login: "ada")), .data(400, Profile(login: "unknown")), .end(400)])
        XCTAssertEqual(bodies.subscriptions, [SubscriptionSpan(200, 400)])
    }
}

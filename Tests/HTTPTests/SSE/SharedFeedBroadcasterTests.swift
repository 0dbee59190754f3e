// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import XCTest
@testable import HTTP
import HTTPTestSupport

/// SSEBroadcaster fed by a shared feed (Redis): ids come from outside, can jump,
/// can start over, and a client may be ahead of this process.
final class SharedFeedBroadcasterTests: XCTestCase {
    private func broadcaster(capacity: Int = 10, catchUpWait: Duration? = nil) -> SSEBroadcaster<String> {
        SSEBroadcaster(capacity: capacity, catchUpWait: catchUpWait) { ServerSentEvent(data: $0) }
    }

    func testGivenIdsAreTheSSEIds() {
        let feed = broadcaster()
        feed.restart(at: 40)
        let received = Received()
        let subscription = feed.subscribe().watch(data: received.append)
        feed.publish("a", id: 41)
        feed.publish("b", id: 42)
        XCTAssertEqual(received.text, "id: 41\ndata: a\n\nid: 42\ndata: b\n\n")
        XCTAssertEqual(feed.lastID, 42)
        subscription.dispose()
    }

    func testRepeatedIdIsIgnored() {
        let feed = broadcaster()
        let received = Received()
        let subscription = feed.subscribe().watch(data: received.append)
        feed.publish("a", id: 1)
        feed.publish("again", id: 1)
        XCTAssertEqual(received.text, "id: 1\ndata: a\n\n")
        subscription.dispose()
    }

    func testJumpInIdsTellsLiveSubscribersResetBeforeTheItem() {
        let feed = broadcaster()
        feed.publish("a", id: 1)
        let received = Received()
        let subscription = feed.subscribe().watch(data: received.append)
        feed.publish("e", id: 5)
        XCTAssertEqual(received.text, "id: 4\nevent: reset\ndata: {\"oldestAvailableId\":5}\n\nid: 5\ndata: e\n\n")
        subscription.dispose()
    }

    func testResumeFromBeforeAJumpGetsReset() {
        let feed = broadcaster()
        feed.publish("a", id: 1)
        feed.publish("e", id: 5)
        let received = Received()
        let subscription = feed.subscribe(after: 1).watch(data: received.append)
        XCTAssertEqual(received.text, "id: 4\nevent: reset\ndata: {\"oldestAvailableId\":5}\n\nid: 5\ndata: e\n\n")
        subscription.dispose()
    }

    func testRestartTellsLiveSubscribersAndIdsStartOver() {
        let feed = broadcaster()
        feed.publish("a", id: 7)
        let received = Received()
        let subscription = feed.subscribe().watch(data: received.append)
        feed.restart(at: 0)
        feed.publish("new", id: 1)
        XCTAssertEqual(received.text, "id: 0\nevent: reset\ndata: {\"oldestAvailableId\":1}\n\nid: 1\ndata: new\n\n")
        subscription.dispose()
    }

    func testSubscriberAheadOfTheFeedWaitsForItsIdWithoutReset() {
        let feed = broadcaster(catchUpWait: .seconds(30))
        feed.publish("a", id: 1)
        let received = Received()
        let subscription = feed.subscribe(after: 3).watch(data: received.append)
        feed.publish("b", id: 2)
        feed.publish("c", id: 3)
        feed.publish("d", id: 4)
        XCTAssertEqual(received.text, "id: 4\ndata: d\n\n")
        subscription.dispose()
    }

    func testFirstStartBeyondAWaitingSubscribersIdTellsItReset() {
        let feed = broadcaster(catchUpWait: .seconds(30))
        let waiting = Received(), live = Received()
        let subscriptions = [feed.subscribe(after: 2).watch(data: waiting.append), feed.subscribe().watch(data: live.append)]
        feed.restart(at: 5, notifying: false)
        XCTAssertEqual(waiting.text, "id: 5\nevent: reset\ndata: {\"oldestAvailableId\":6}\n\n")
        XCTAssertEqual(live.text, "", "a client with nothing to resume is not told")
        subscriptions.forEach { $0.dispose() }
    }

    func testSubscriberAheadGetsResetWhenTheFeedDoesNotCatchUpInTime() {
        let feed = broadcaster(catchUpWait: .milliseconds(50))
        feed.publish("a", id: 1)
        let received = Received()
        let subscription = feed.subscribe(after: 900).watch(data: received.append)
        waitUntil("reset after the wait") { !received.text.isEmpty }
        feed.publish("b", id: 2)
        XCTAssertEqual(received.text, "id: 0\nevent: reset\ndata: {\"oldestAvailableId\":1}\n\nid: 1\ndata: a\n\nid: 2\ndata: b\n\n")
        subscription.dispose()
    }
}

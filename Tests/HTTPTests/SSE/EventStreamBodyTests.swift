// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import XCTest
@testable import HTTP
import HTTPTestSupport

final class EventStreamBodyTests: XCTestCase {
    func testHeartbeatsAreMixedIntoAnIdleFeed() {
        let events = Streamer<[UInt8]>()
        let beats = Streamer<[UInt8]>()
        let received = Received()
        let subscription = EventStreamBody.make(events: events.asDataStream(), heartbeats: beats.asDataStream()).watch(data: received.append)
        // events: -a-------b--
        // beats:  ---h--h-----h
        // body:   -a----h--b---  (the beat after an event is skipped)
        events.data(Array("a".utf8))
        beats.data(Array("h".utf8))
        beats.data(Array("h".utf8))
        events.data(Array("b".utf8))
        beats.data(Array("h".utf8))
        XCTAssertEqual(received.text, "ahb")
        subscription.dispose()
    }

    func testAFeedWithAnEventBetweenEveryTwoBeatsGetsNoHeartbeat() {
        let events = Streamer<[UInt8]>()
        let beats = Streamer<[UInt8]>()
        let received = Received()
        let subscription = EventStreamBody.make(prelude: Array("p".utf8), events: events.asDataStream(), heartbeats: beats.asDataStream()).watch(data: received.append)
        for event in ["a", "b", "c"] {
            events.data(Array(event.utf8))
            beats.data(Array("h".utf8))
        }
        XCTAssertEqual(received.text, "pabc")
        subscription.dispose()
    }

    func testEndOfTheFeedEndsTheBodyAndStopsHeartbeats() {
        let events = Streamer<[UInt8]>()
        let beats = Streamer<[UInt8]>()
        let ended = expectation(description: "body ended")
        let subscription = EventStreamBody.make(events: events.asDataStream(), heartbeats: beats.asDataStream()).watch(end: { ended.fulfill() })
        XCTAssertEqual(beats.watcherCount, 1)
        events.end()
        wait(for: [ended], timeout: 1)
        XCTAssertEqual(beats.watcherCount, 0)
        subscription.dispose()
    }

    func testHeartbeatClockBeatsWithAComment() {
        let scheduler = TestScheduler()
        let clock = HeartbeatClock(period: .seconds(15), scheduler: scheduler)
        let received = Received()
        let subscription = clock.stream.watch(data: received.append)
        clock.start()
        scheduler.advance(by: .seconds(14))
        XCTAssertEqual(received.text, "", "no beat before the first period")
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(received.text, ": heartbeat\n\n")
        scheduler.advance(by: .seconds(15))
        XCTAssertEqual(received.text, ": heartbeat\n\n: heartbeat\n\n")
        clock.stop()
        scheduler.advance(by: .seconds(60))
        XCTAssertEqual(received.text.count, 2 * ": heartbeat\n\n".count)
        subscription.dispose()
    }
}

extension EventStreamBodyTests {
    func testAQuietStreamGetsItsFirstBeatWithinOnePeriodOfConnecting() {
        let scheduler = TestScheduler()
        let clock = HeartbeatClock(period: .seconds(15), scheduler: scheduler)
        clock.start()
        scheduler.advance(by: .seconds(1))
        let received = Received()
        let subscription = EventStreamBody.make(prelude: Array("p".utf8), events: DataStream.never(), heartbeats: clock.stream).watch(data: received.append)
        scheduler.advance(by: .seconds(14))
        XCTAssertEqual(received.text, "p: heartbeat\n\n", "a beat 14 s after connecting, at the clock's first tick")
        subscription.dispose()
        clock.stop()
    }

    func testPreludeComesFirstThenTheFeed() {
        let events = Streamer<[UInt8]>()
        let received = Received()
        let subscription = EventStreamBody.make(prelude: Array("p".utf8), events: events.asDataStream(), heartbeats: nil).watch(data: received.append)
        events.data(Array("a".utf8))
        XCTAssertEqual(received.text, "pa")
        subscription.dispose()
    }
}

extension EventStreamBodyTests {
    func testEveryOpenStreamGetsEachBeatAndAClosedOneNoMore() {
        let scheduler = TestScheduler()
        let clock = HeartbeatClock(period: .seconds(15), scheduler: scheduler)
        let (first, second) = (Received(), Received())
        let firstSubscription = clock.stream.watch(data: first.append)
        let secondSubscription = clock.stream.watch(data: second.append)
        clock.start()
        scheduler.advance(by: .seconds(15))
        firstSubscription.dispose()
        XCTAssertEqual(clock.watcherCount, 1)
        scheduler.advance(by: .seconds(15))
        XCTAssertEqual(first.text, ": heartbeat\n\n")
        XCTAssertEqual(second.text, ": heartbeat\n\n: heartbeat\n\n")
        secondSubscription.dispose()
        XCTAssertEqual(clock.watcherCount, 0)
        clock.stop()
    }

    func testTwentyThousandStreamsCloseInLinearTime() {
        let clock = HeartbeatClock(period: .seconds(15), scheduler: TestScheduler())
        let subscriptions = (0..<20_000).map { _ in clock.stream.watch(data: { _ in }) }
        // Closing in subscription order is the worst case of an array searched from the front.
        let started = ContinuousClock.now
        for subscription in subscriptions { subscription.dispose() }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(3), "20,000 closes: milliseconds when each is O(1), 10 s and more (debug build) when each searches all")
        XCTAssertEqual(clock.watcherCount, 0)
    }
}

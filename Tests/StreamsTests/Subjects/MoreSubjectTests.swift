// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import StreamsTesting
import XCTest

private struct Failure: Error, Equatable {}

final class AsyncStreamerTests: XCTestCase {
    func testOnlyTheLastValueIsEmittedAndOnlyAtTheEnd() {
        let subject = AsyncStreamer<Int>()
        let early = EventRecorder<Int>()
        early.watch(subject)
        subject.data(1)
        subject.data(2)
        XCTAssertEqual(early.events, [])
        subject.end()
        XCTAssertEqual(early.events, [.data(2), .end])
    }

    func testAWatcherAfterTheEndGetsTheLastValueAndTheEnd() {
        let subject = AsyncStreamer<Int>()
        subject.data(7)
        subject.end()
        subject.data(8)
        let late = EventRecorder<Int>()
        late.watch(subject)
        XCTAssertEqual(late.events, [.data(7), .end])
    }

    func testAnErrorPassesOnWithoutTheValue() {
        let subject = AsyncStreamer<Int>()
        let recorder = EventRecorder<Int>()
        recorder.watch(subject)
        subject.data(1)
        subject.error(Failure())
        XCTAssertEqual(recorder.events, [.error(Failure())])
    }

    func testAnEndWithoutValuesIsJustTheEnd() {
        let subject = AsyncStreamer<Int>()
        subject.end()
        let recorder = EventRecorder<Int>()
        recorder.watch(subject)
        XCTAssertEqual(recorder.events, [.end])
    }
}

final class RelayTests: XCTestCase {
    func testARelayPassesAcceptedValuesAndNothingElse() {
        let relay = Relay<Int>()
        let recorder = EventRecorder<Int>()
        recorder.watch(relay.asInfallible())
        relay.accept(1)
        relay.accept(2)
        XCTAssertEqual(recorder.events, [.data(1), .data(2)])
    }

    func testAValueRelayReplaysItsCurrentValue() {
        let relay = ValueRelay(0)
        relay.accept(5)
        let recorder = EventRecorder<Int>()
        recorder.watch(relay)
        relay.accept(6)
        XCTAssertEqual(recorder.events, [.data(5), .data(6)])
        XCTAssertEqual(relay.value, 6)
    }

    func testARelayOutlivesTheStreamsThatFeedIt() {
        let relay = Relay<Int>()
        let recorder = EventRecorder<Int>()
        recorder.watch(relay)
        DataStream.just(data: [1, 2]).watch(data: { relay.accept($0) })
        relay.accept(3)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .data(3)])
        XCTAssertEqual(relay.watcherCount, 1)
    }
}

final class ReplayWindowTests: XCTestCase {
    func testOnlyValuesWithinTheWindowAreReplayed() {
        let scheduler = TestScheduler()
        let subject = ReplayStreamer<Int>(window: .milliseconds(300), scheduler: scheduler)
        scheduler.at(0) { subject.data(1) }
        scheduler.at(200) { subject.data(2) }
        scheduler.at(400) { subject.data(3) }
        let recorder = RecordingWatcher<Int>(scheduler)
        scheduler.at(550) { subject.watch(using: recorder.watcher) }
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [.data(550, 3)])
    }

    func testTheCountStillBoundsAWindowedReplay() {
        let scheduler = TestScheduler()
        let subject = ReplayStreamer<Int>(bufferSize: 2, window: .seconds(10), scheduler: scheduler)
        [1, 2, 3].forEach(subject.data)
        let recorder = EventRecorder<Int>()
        recorder.watch(subject)
        XCTAssertEqual(recorder.values, [2, 3])
    }
}

final class ConnectableStreamTests: XCTestCase {
    func testNothingFlowsUntilConnectAndThenEveryWatcherGetsEverything() {
        let scheduler = TestScheduler()
        let source = scheduler.coldStream("-a-b-|")
        let published = source.publish()
        let (first, _) = scheduler.record(published)
        let (second, _) = scheduler.record(published)
        scheduler.advance(to: .milliseconds(100))
        XCTAssertEqual(source.subscriptions, [])
        published.connect()
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(first.events, [.data(110, "a"), .data(130, "b"), .end(150)])
        XCTAssertEqual(second.events, first.events)
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(100, 150)])
    }

    func testDisposingTheConnectionStopsTheSourceAndAReconnectStartsAfresh() {
        let scheduler = TestScheduler()
        let source = scheduler.coldStream("-a-b-|")
        let published = source.publish()
        let connection = published.connect()
        XCTAssertTrue(published.connect() === connection)
        scheduler.at(20) { connection.dispose() }
        scheduler.advance(to: .milliseconds(100))
        let (late, _) = scheduler.record(published)
        published.connect()
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(late.events, [.data(110, "a"), .data(130, "b"), .end(150)])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 20), SubscriptionSpan(100, 150)])
    }

    func testRefCountConnectsForTheFirstWatcherAndDisconnectsAfterTheLast() {
        let scheduler = TestScheduler()
        let source = scheduler.coldStream("-a-b-c-d-|")
        let shared = source.publish().refCount()
        let (first, firstSubscription) = scheduler.record(shared)
        let second = RecordingWatcher<String>(scheduler)
        let secondSubscription = SerialDisposable()
        scheduler.at(25) { secondSubscription.replace(with: shared.watch(using: second.watcher)) }
        scheduler.at(35) { firstSubscription.dispose() }
        scheduler.at(55) { secondSubscription.dispose() }
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(first.values, ["a", "b"])
        XCTAssertEqual(second.values, ["b", "c"])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 55)])
    }

    func testMulticastThroughAReplayingSubjectGivesLateWatchersThePast() {
        let published = DataStream.just(data: [1, 2, 3]).multicast { ReplayStreamer(bufferSize: 2) }
        published.connect()
        let late = EventRecorder<Int>()
        late.watch(published)
        XCTAssertEqual(late.events, [.data(2), .data(3), .end])
    }
}

final class StreamerAsWatcherTests: XCTestCase {
    func testAStreamerWatchingAStreamRebroadcastsIt() {
        let subject = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        recorder.watch(subject.map { $0 * 10 })
        DataStream.just(data: [1, 2]).watch(using: subject.asWatcher())
        XCTAssertEqual(recorder.events, [.data(10), .data(20), .end])
    }

    func testAnySubjectCanBeFedThroughItsWatcher() {
        let subject = ValueStreamer(0)
        DataStream.just(4).watch(using: subject.asWatcher())
        XCTAssertEqual(subject.value, 4)
    }
}

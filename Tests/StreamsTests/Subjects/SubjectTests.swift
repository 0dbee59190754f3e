// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

final class StreamerTests: XCTestCase {
    func testStreamerMulticastsToEveryCurrentWatcher() {
        let streamer = Streamer<Int>()
        let a = EventRecorder<Int>(), b = EventRecorder<Int>()
        streamer.watch(using: a.watcher)
        streamer.data(1)
        streamer.watch(using: b.watcher)
        streamer.data(2)
        streamer.end()
        XCTAssertEqual(a.events, [.data(1), .data(2), .end])
        XCTAssertEqual(b.events, [.data(2), .end])
    }

    func testAWatcherJoiningFromInsideADeliveryGetsOnlyLaterEvents() {
        let streamer = Streamer<Int>()
        let late = EventRecorder<Int>()
        streamer.watch { event in
            if case .data(1) = event { streamer.watch(using: late.watcher) }
        }
        streamer.data(1)
        streamer.data(2)
        XCTAssertEqual(late.values, [2])
    }
}

final class ValueStreamerTests: XCTestCase {
    func testValueStreamerReplaysItsCurrentValueToANewWatcher() {
        let subject = ValueStreamer(7)
        let recorder = EventRecorder<Int>()
        subject.data(8)
        subject.watch(using: recorder.watcher)
        subject.data(9)
        XCTAssertEqual(recorder.values, [8, 9])
        XCTAssertEqual(subject.value, 9)
    }

    func testValueStreamerAfterItsEndReplaysOnlyTheEnd() {
        let subject = ValueStreamer(7)
        subject.end()
        let recorder = EventRecorder<Int>()
        subject.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.end])
    }
}

final class ReplayStreamerTests: XCTestCase {
    func testReplayStreamerReplaysTheLastValuesUpToItsBufferSize() {
        let subject = ReplayStreamer<Int>(bufferSize: 2)
        subject.data(1); subject.data(2); subject.data(3)
        let recorder = EventRecorder<Int>()
        subject.watch(using: recorder.watcher)
        subject.data(4)
        XCTAssertEqual(recorder.values, [2, 3, 4])
    }

    func testReplayStreamerReplaysItsTerminalEventAfterTheValues() {
        let subject = ReplayStreamer<Int>(bufferSize: 5)
        subject.data(1); subject.error(TestError.boom)
        let recorder = EventRecorder<Int>()
        subject.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .error(TestError.boom)])
    }
}

final class ShareTests: XCTestCase {
    func testShareWatchesTheSourceOnceForManyWatchers() {
        let subscriptions = Counter()
        let source = Streamer<Int>()
        let shared = source.call(watched: { subscriptions.increment() }).share()
        let a = EventRecorder<Int>(), b = EventRecorder<Int>()
        shared.watch(using: a.watcher)
        shared.watch(using: b.watcher)
        source.data(1)
        XCTAssertEqual(subscriptions.value, 1)
        XCTAssertEqual(a.values, [1])
        XCTAssertEqual(b.values, [1])
    }

    func testShareDisposesTheSourceWhenTheLastWatcherLeaves() {
        let source = Streamer<Int>()
        let shared = source.share()
        let first = shared.watch { _ in }, second = shared.watch { _ in }
        first.dispose()
        XCTAssertEqual(source.watcherCount, 1)
        second.dispose()
        XCTAssertEqual(source.watcherCount, 0)
    }

    func testShareReconnectsAfterTheSourceEnded() {
        let subscriptions = Counter()
        let shared = DataStream.just(1).call(watched: { subscriptions.increment() }).share()
        let a = EventRecorder<Int>(), b = EventRecorder<Int>()
        shared.watch(using: a.watcher)
        shared.watch(using: b.watcher)
        XCTAssertEqual(subscriptions.value, 2)
        XCTAssertEqual(b.events, [.data(1), .end])
    }

    func testReplayGivesALateWatcherTheLastValues() {
        let source = Streamer<Int>()
        let replayed = source.replay(2)
        replayed.watch { _ in }
        source.data(1); source.data(2); source.data(3)
        let late = EventRecorder<Int>()
        replayed.watch(using: late.watcher)
        XCTAssertEqual(late.values, [2, 3])
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization
import XCTest
import Streams
import StreamsTesting

final class DataStreamCoreTests: XCTestCase {
    func testJustDataDeliversValuesThenEnd() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2, 3]).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .data(3), .end])
    }

    func testNothingIsDeliveredAfterATerminalEvent() {
        let recorder = EventRecorder<Int>()
        DataStream<Int> { watcher in
            watcher.data(1)
            watcher.end()
            watcher.data(2)
            watcher.error(TestError.boom)
            watcher.end()
            return Disposable()
        }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .end])
    }

    func testDisposingTwiceRunsTheCancelActionOnce() {
        let count = Counter()
        let disposable = Disposable { count.increment() }
        disposable.dispose()
        disposable.dispose()
        XCTAssertEqual(count.value, 1)
        XCTAssertTrue(disposable.isDisposed)
    }

    func testEndingDisposesTheSourceAndReturnsTheLiveCounterToBaseline() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let cancelled = Counter()
        DataStream<Int> { watcher in
            watcher.end()
            return Disposable { cancelled.increment() }
        }.watch { _ in }
        XCTAssertEqual(cancelled.value, 1)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
    }

    func testDisposingAWatchStopsDeliveryAndReturnsTheLiveCounterToBaseline() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let streamer = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        let subscription = streamer.asDataStream().watch(using: recorder.watcher)
        streamer.data(1)
        // `asDataStream` hands the watcher on to the streamer: one subscription, not two nested ones.
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline + 1)
        subscription.dispose()
        streamer.data(2)
        XCTAssertEqual(recorder.events, [.data(1)])
        XCTAssertEqual(streamer.watcherCount, 0)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
    }

    func testDeferredFeedsItsWatcherThroughTheOneSubscriptionOfTheStreamItMakes() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let cancelled = Counter()
        let subscription = DataStream<Int>.deferred { DataStream<Int> { _ in Disposable { cancelled.increment() } } }.watch { _ in }
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline + 1)
        subscription.dispose()
        XCTAssertEqual(cancelled.value, 1)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
    }

    func testDisposingTheSubscriptionOfAFailedDeferredLeavesOtherStreamsAlone() {
        let recorder = EventRecorder<Int>()
        let failed = DataStream<Int>.deferred { () throws -> DataStream<Int> in throw TestError.boom }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.error(TestError.boom)])
        failed.dispose()
        let after = EventRecorder<Int>()
        DataStream.just(1).watch(using: after.watcher)
        XCTAssertEqual(after.events, [.data(1), .end])
    }

    // deferred { -a| }, watched at 0 and at 300:  -a|  then  -a|    a fresh stream per watch
    func testDeferredMakesAFreshStreamForEachWatch() {
        let scheduler = TestScheduler()
        let made = Counter()
        let source = scheduler.coldStream("-a|", frame: .milliseconds(100))
        let deferred = DataStream<String>.deferred { () -> DataStream<String> in
            made.increment()
            return source.asDataStream()
        }
        let first = RecordingWatcher<String>(scheduler)
        let second = RecordingWatcher<String>(scheduler)
        deferred.watch(using: first.watcher)
        scheduler.advance(to: .milliseconds(300))
        deferred.watch(using: second.watcher)
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(made.value, 2)
        XCTAssertEqual(first.events, [.data(100, "a"), .end(200)])
        XCTAssertEqual(second.events, [.data(400, "a"), .end(500)])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 200), SubscriptionSpan(300, 500)])
    }

    func testDeferredGivenAStoppedWatcherMakesNothing() {
        let made = Counter()
        let recorder = EventRecorder<Int>()
        let watcher = recorder.watcher
        Streamer<Int>().asDataStream().watch(using: watcher).dispose()
        DataStream<Int>.deferred { () -> DataStream<Int> in
            made.increment()
            return .just(1)
        }.watch(using: watcher)
        XCTAssertEqual(made.value, 0)
        XCTAssertEqual(recorder.events, [])
    }

    func testAnOperatorStoppingEarlyStopsAnEndlessSynchronousSource() {
        let firstThree = DataStream<Int> { watcher in
            let seen = Counter()
            return DataStream.from(1...).watch { event in
                guard case .data(let value) = event else { return }
                watcher.data(value)
                seen.increment()
                if seen.value == 3 { watcher.end() }
            }
        }
        let recorder = EventRecorder<Int>()
        firstThree.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .data(3), .end])
    }

    func testDisposeBagDisposesOnDeinit() {
        let count = Counter()
        do {
            let bag = DisposeBag()
            Disposable { count.increment() }.disposed(by: bag)
            Disposable { count.increment() }.disposed(by: bag)
        }
        XCTAssertEqual(count.value, 2)
    }

    func testStreamerReplaysItsTerminalEventToLateWatchers() {
        let streamer = Streamer<Int>()
        streamer.end()
        let recorder = EventRecorder<Int>()
        streamer.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.end])
    }

    func testStreamerFeedbackFromAWatcherIsDeliveredAfterTheCurrentEvent() {
        let streamer = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        streamer.watch { event in
            if case .data(1) = event { streamer.data(2) }
        }
        streamer.watch(using: recorder.watcher)
        streamer.data(1)
        XCTAssertEqual(recorder.values, [1, 2])
    }
}

enum TestError: Error { case boom, other }

final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

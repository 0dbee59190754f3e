// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import Synchronization
import XCTest
import Streams
import StreamsTesting

final class WatchOnTests: XCTestCase {
    func testTheSourceIsWatchedOnlyWhenTheSchedulerRunsTheSubscription() {
        let scheduler = TestScheduler()
        let subscriptions = Counter()
        let source = DataStream<Int>.deferred {
            subscriptions.increment()
            return DataStream.just(7)
        }
        let (recorder, _) = scheduler.record(source.watch(on: scheduler))
        XCTAssertEqual(subscriptions.value, 0)
        scheduler.advance(to: .milliseconds(5))
        XCTAssertEqual(subscriptions.value, 1)
        XCTAssertEqual(recorder.events, [.at(0, .data(7)), .at(0, .end)])
    }

    func testTheSubscribeWorkRunsOnTheSchedulersQueue() {
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "watch-on-test")
        queue.setSpecific(key: key, value: "watch-on-test")
        let label = Mutex<String?>(nil)
        let ended = expectation(description: "ended")
        let source = DataStream<Int> { watcher in
            label.withLock { $0 = DispatchQueue.getSpecific(key: key) }
            watcher.end()
            return Disposable()
        }
        source.watch(on: QueueScheduler(queue: queue)).watch(end: { ended.fulfill() })
        wait(for: [ended], timeout: 10)
        XCTAssertEqual(label.withLock { $0 }, "watch-on-test")
    }

    func testDisposingBeforeTheSubscriptionStartsMeansTheSourceIsNeverWatched() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let scheduler = TestScheduler()
        let subscriptions = Counter()
        let source = DataStream<Int>.deferred {
            subscriptions.increment()
            return DataStream.just(7)
        }
        let (recorder, subscription) = scheduler.record(source.watch(on: scheduler))
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(subscriptions.value, 0)
        XCTAssertEqual(recorder.events, [])
    }

    func testDisposingAfterTheSubscriptionStartedDisposesTheSourceAtOnce() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let scheduler = TestScheduler()
        let source = Streamer<Int>()
        let (_, subscription) = scheduler.record(source.watch(on: scheduler))
        scheduler.advance(by: .zero)
        XCTAssertEqual(source.watcherCount, 1)
        subscription.dispose()
        XCTAssertEqual(source.watcherCount, 0)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
    }
}

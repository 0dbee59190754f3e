// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import Synchronization
import XCTest
import Streams
import StreamsTesting

final class ObserveOnTests: XCTestCase {
    func testEventsAreDeliveredByTheSchedulerNotOnTheEmittingThread() {
        let scheduler = TestScheduler()
        let (recorder, _) = scheduler.record(DataStream.just(data: [1, 2, 3]).observe(on: scheduler))
        XCTAssertEqual(recorder.events, [])
        scheduler.advance(by: .zero)
        XCTAssertEqual(recorder.events, [.at(0, .data(1)), .at(0, .data(2)), .at(0, .data(3)), .at(0, .end)])
    }

    func testEventsRunOnTheSchedulersQueue() {
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "observe-on-test")
        queue.setSpecific(key: key, value: "observe-on-test")
        let labels = Mutex<[String?]>([])
        let ended = expectation(description: "ended")
        DataStream.just(data: [1, 2]).observe(on: QueueScheduler(queue: queue)).watch { event in
            labels.withLock { $0.append(DispatchQueue.getSpecific(key: key)) }
            if event.isTerminal { ended.fulfill() }
        }
        wait(for: [ended], timeout: 10)
        XCTAssertEqual(labels.withLock { $0 }, ["observe-on-test", "observe-on-test", "observe-on-test"])
    }

    func testOrderIsKeptAndDeliveriesNeverOverlapOnAConcurrentQueue() {
        let count = 20_000
        let source = Streamer<Int>()
        let overlapping = Atomic<Bool>(false)
        let sawOverlap = Atomic<Bool>(false)
        let received = Mutex<[Int]>([])
        let ended = expectation(description: "ended")
        let subscription = source.observe(on: QueueScheduler.global).watch { event in
            if overlapping.exchange(true, ordering: .acquiringAndReleasing) { sawOverlap.store(true, ordering: .relaxed) }
            if case .data(let value) = event { received.withLock { $0.append(value) } }
            overlapping.store(false, ordering: .releasing)
            if event.isTerminal { ended.fulfill() }
        }
        DispatchQueue.global().async {
            for value in 0..<count { source.data(value) }
            source.end()
        }
        wait(for: [ended], timeout: 20)
        XCTAssertFalse(sawOverlap.load(ordering: .relaxed))
        XCTAssertEqual(received.withLock { $0 }, Array(0..<count))
        subscription.dispose()
    }

    func testDisposingDropsQueuedEventsAndCancelsTheDelivery() {
        assertDisposingCancelsPendingWork(feeding: 1) { source, scheduler in source.observe(on: scheduler) }
    }

    func testFeedbackThroughTheImmediateSchedulerDoesNotGrowTheStack() {
        let rounds = 100_000
        let feed = Mutex<Watcher<Int>?>(nil)
        let source = DataStream<Int> { watcher in
            feed.withLock { $0 = watcher }
            return Disposable()
        }
        let received = Counter()
        source.observe(on: ImmediateScheduler()).watch { event in
            guard case .data(let value) = event else { return }
            received.increment()
            let watcher = feed.withLock { $0 }
            if value < rounds { watcher?.data(value + 1) } else { watcher?.end() }
        }
        feed.withLock { $0 }?.data(1)
        XCTAssertEqual(received.value, rounds)
    }
}

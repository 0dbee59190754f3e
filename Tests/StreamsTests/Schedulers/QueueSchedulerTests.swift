// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import Synchronization
import XCTest
import Streams
import StreamsTesting

final class QueueSchedulerTests: XCTestCase {
    func testWorkRunsOnTheSchedulersQueue() {
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "queue-scheduler-test")
        queue.setSpecific(key: key, value: "queue-scheduler-test")
        let label = Mutex<String?>(nil)
        let ran = expectation(description: "ran")
        QueueScheduler(queue: queue).schedule {
            label.withLock { $0 = DispatchQueue.getSpecific(key: key) }
            ran.fulfill()
        }
        wait(for: [ran], timeout: 10)
        XCTAssertEqual(label.withLock { $0 }, "queue-scheduler-test")
    }

    func testDelayedWorkRunsNoSoonerThanItsDelay() throws {
        let scheduler = QueueScheduler(label: "queue-scheduler-delay-test")
        let scheduledAt = scheduler.now
        let ranAt = Mutex<Duration?>(nil)
        let ran = expectation(description: "ran")
        scheduler.schedule(after: .milliseconds(30)) {
            ranAt.withLock { $0 = scheduler.now }
            ran.fulfill()
        }
        wait(for: [ran], timeout: 10)
        let elapsed = try XCTUnwrap(ranAt.withLock { $0 }) - scheduledAt
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(29))
    }

    func testCancelledDelayedWorkNeverRuns() {
        let scheduler = QueueScheduler(label: "queue-scheduler-cancel-test")
        let ran = Counter()
        let cancellation = scheduler.schedule(after: .milliseconds(20)) { ran.increment() }
        cancellation.dispose()
        let later = expectation(description: "a later job ran")
        scheduler.schedule(after: .milliseconds(60)) { later.fulfill() }
        wait(for: [later], timeout: 10)
        XCTAssertEqual(ran.value, 0)
    }

    func testWorkOnASerialQueueRunsInTheOrderItWasScheduled() {
        let scheduler = QueueScheduler(label: "queue-scheduler-order-test")
        let order = Mutex<[Int]>([])
        let done = expectation(description: "done")
        for index in 0..<1_000 {
            scheduler.schedule {
                order.withLock { $0.append(index) }
                if index == 999 { done.fulfill() }
            }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(order.withLock { $0 }, Array(0..<1_000))
    }

    func testTheClockOnlyMovesForward() {
        let scheduler = QueueScheduler(label: "queue-scheduler-clock-test")
        let first = scheduler.now
        let second = scheduler.now
        XCTAssertGreaterThanOrEqual(first, .zero)
        XCTAssertGreaterThanOrEqual(second, first)
    }

    func testWorkDueAtOnceRunsInOrderWithOtherWorkOnTheQueue() {
        let scheduler = QueueScheduler(label: "queue-scheduler-zero-delay-test")
        let order = Mutex<[String]>([])
        let done = expectation(description: "done")
        scheduler.schedule { order.withLock { $0.append("first") } }
        scheduler.schedule(after: .zero) { order.withLock { $0.append("second") } }
        scheduler.schedule(after: .milliseconds(-5)) { order.withLock { $0.append("third") } }
        scheduler.schedule {
            order.withLock { $0.append("fourth") }
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(order.withLock { $0 }, ["first", "second", "third", "fourth"])
    }

    func testWorkDueAtOnceCanStillBeCancelledBeforeItRuns() {
        let queue = DispatchQueue(label: "queue-scheduler-zero-delay-cancel-test")
        let scheduler = QueueScheduler(queue: queue)
        let ran = Counter()
        let done = expectation(description: "done")
        queue.sync {
            scheduler.schedule(after: .zero) { ran.increment() }.dispose()
            scheduler.schedule { done.fulfill() }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(ran.value, 0)
    }
}

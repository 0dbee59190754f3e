// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import NetCore
import Streams
import XCTest
@testable import HTTP
import HTTPTestSupport

/// The real loop scheduler on real time: each test waits for the work it schedules, never sleeps.
final class EventLoopSchedulerTests: XCTestCase {
    private let loop = EventLoop(label: "test.scheduler")
    private lazy var scheduler = EventLoopScheduler(loop: loop)

    func testDelayedWorkRunsOnTheLoopNoEarlierThanItsDelay() throws {
        let ran = expectation(description: "ran")
        let start = scheduler.now
        let scheduler = self.scheduler, loop = self.loop
        let observed = Locked<(onLoop: Bool, elapsed: Duration)?>(nil)
        scheduler.schedule(after: .milliseconds(20)) {
            observed.withLock { $0 = (loop.inLoop, scheduler.now - start) }
            ran.fulfill()
        }
        wait(for: [ran], timeout: 5)
        let (onLoop, elapsed) = try XCTUnwrap(observed.withLock { $0 })
        XCTAssertTrue(onLoop)
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(20))
    }

    func testTimersRunInDeadlineOrder() {
        let order = Locked<[Int]>([])
        let done = expectation(description: "all ran")
        done.expectedFulfillmentCount = 3
        for delay in [30, 10, 20] {
            scheduler.schedule(after: .milliseconds(delay)) {
                order.withLock { $0.append(delay) }
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(order.withLock { $0 }, [10, 20, 30])
    }

    func testDisposedWorkNeverRuns() {
        let cancelledRan = Locked(false)
        let later = expectation(description: "later work ran")
        scheduler.schedule(after: .milliseconds(10)) { cancelledRan.withLock { $0 = true } }.dispose()
        scheduler.schedule(after: .milliseconds(30)) { later.fulfill() }
        wait(for: [later], timeout: 5)
        XCTAssertFalse(cancelledRan.withLock { $0 })
    }

    func testDisposingOneShotWorkReleasesItsClosureAtOnce() {
        final class Payload: Sendable {}
        weak var released: Payload?
        let disposable: Disposable = {
            let payload = Payload()
            released = payload
            return scheduler.schedule(after: .seconds(60)) { withExtendedLifetime(payload) {} }
        }()
        XCTAssertNotNil(released, "held while scheduled")
        disposable.dispose()
        XCTAssertNil(released, "a cancelled timer keeps its heap entry until its deadline, but not its work")
    }

    func testRepeatingWorkRunsEveryPeriodUntilDisposed() {
        let runs = Locked(0)
        let fiveRuns = expectation(description: "five runs")
        let repeating = Locked<Disposable?>(nil)
        repeating.withLock { slot in
            slot = scheduler.scheduleRepeating(after: .zero, every: .milliseconds(5)) {
                let count = runs.withLock { count -> Int in
                    count += 1
                    return count
                }
                if count == 5 {
                    repeating.withLock { $0?.dispose() }
                    fiveRuns.fulfill()
                }
            }
        }
        wait(for: [fiveRuns], timeout: 5)
        // Three more periods pass on the same loop; a repeat that was not cancelled would have run by then.
        let afterwards = expectation(description: "three periods later")
        scheduler.schedule(after: .milliseconds(15)) { afterwards.fulfill() }
        wait(for: [afterwards], timeout: 5)
        XCTAssertEqual(runs.withLock { $0 }, 5)
    }

    func testIntervalOnTheLoopSchedulerTicksOnTheLoop() {
        let values = Locked<[Int]>([])
        let offLoop = Locked(0)
        let ended = expectation(description: "ended")
        let loop = self.loop
        let subscription = DataStream.interval(.milliseconds(5), scheduler: scheduler).take(3).watch(
            data: { value in
                if !loop.inLoop { offLoop.withLock { $0 += 1 } }
                values.withLock { $0.append(value) }
            },
            end: { ended.fulfill() }
        )
        wait(for: [ended], timeout: 5)
        XCTAssertEqual(values.withLock { $0 }, [0, 1, 2])
        XCTAssertEqual(offLoop.withLock { $0 }, 0)
        subscription.dispose()
    }

    func testACancelledTimerLeavesTheHeapAtOnce() {
        let timers = (0..<5_000).map { _ in scheduler.schedule(after: .seconds(3600)) {} }
        XCTAssertEqual(scheduler.pendingCount, 5_000)
        timers.reversed().forEach { $0.dispose() }
        XCTAssertEqual(scheduler.pendingCount, 0, "no cancelled long timeout waits for its deadline in the heap")
    }

    func testCancellingSomeTimersKeepsTheOthersInDeadlineOrder() {
        let order = Locked<[Int]>([])
        let done = expectation(description: "the kept timers ran")
        done.expectedFulfillmentCount = 5
        var cancelled: [Disposable] = []
        for delay in [50, 5, 45, 10, 40, 15, 35, 20, 30, 25] {
            let disposable = scheduler.schedule(after: .milliseconds(delay)) {
                order.withLock { $0.append(delay) }
                done.fulfill()
            }
            if delay % 10 == 5 { cancelled.append(disposable) }
        }
        cancelled.forEach { $0.dispose() }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(order.withLock { $0 }, [10, 20, 30, 40, 50])
    }

    func testATimerCancelledFromAnotherLoopNeverRuns() {
        let other = EventLoop(label: "test.scheduler.other")
        let cancelledRan = Locked(false)
        let timer = scheduler.schedule(after: .milliseconds(20)) { cancelledRan.withLock { $0 = true } }
        let disposed = expectation(description: "disposed on the other loop")
        other.execute {
            timer.dispose()
            disposed.fulfill()
        }
        wait(for: [disposed], timeout: 5)
        XCTAssertEqual(scheduler.pendingCount, 0, "taken out of this loop's heap by the other loop")
        let later = expectation(description: "a later timer ran")
        scheduler.schedule(after: .milliseconds(40)) { later.fulfill() }
        wait(for: [later], timeout: 5)
        XCTAssertFalse(cancelledRan.withLock { $0 })
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization
import XCTest
import Streams
import StreamsTesting

final class TestSchedulerTests: XCTestCase {
    func testNothingRunsUntilTheClockIsAdvanced() {
        let scheduler = TestScheduler()
        let ran = Counter()
        scheduler.schedule { ran.increment() }
        scheduler.schedule(after: .milliseconds(10)) { ran.increment() }
        XCTAssertEqual(ran.value, 0)
        XCTAssertEqual(scheduler.pendingCount, 2)
    }

    func testAdvanceRunsEverythingDueAtOrBeforeTheNewTimeInTimeOrder() {
        let scheduler = TestScheduler()
        let log = RunLog()
        scheduler.schedule(after: .milliseconds(30)) { log.append("30") }
        scheduler.schedule(after: .milliseconds(10)) { log.append("10") }
        scheduler.schedule(after: .milliseconds(20)) { log.append("20") }
        scheduler.schedule(after: .milliseconds(31)) { log.append("31") }
        scheduler.advance(by: .milliseconds(30))
        XCTAssertEqual(log.entries, ["10", "20", "30"])
        XCTAssertEqual(scheduler.now, .milliseconds(30))
    }

    func testWorkDueAtTheSameTimeRunsInTheOrderItWasScheduled() {
        let scheduler = TestScheduler()
        let log = RunLog()
        for name in ["a", "b", "c", "d"] {
            scheduler.schedule(after: .milliseconds(5)) { log.append(name) }
        }
        scheduler.advance(by: .milliseconds(5))
        XCTAssertEqual(log.entries, ["a", "b", "c", "d"])
    }

    func testTheClockReadsEachJobsDueTimeWhileItRuns() {
        let scheduler = TestScheduler()
        let seen = Mutex<[Duration]>([])
        for delay in [10, 25] {
            scheduler.schedule(after: .milliseconds(delay)) { seen.withLock { $0.append(scheduler.now) } }
        }
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(seen.withLock { $0 }, [.milliseconds(10), .milliseconds(25)])
    }

    func testWorkScheduledByRunningWorkWithinTheSpanRunsInTheSameAdvance() {
        let scheduler = TestScheduler()
        let log = RunLog()
        scheduler.schedule(after: .milliseconds(10)) {
            log.append("first")
            scheduler.schedule(after: .milliseconds(10)) { log.append("second") }
            scheduler.schedule(after: .milliseconds(100)) { log.append("too late") }
        }
        scheduler.advance(by: .milliseconds(20))
        XCTAssertEqual(log.entries, ["first", "second"])
        XCTAssertEqual(scheduler.pendingCount, 1)
    }

    func testCancelledWorkNeverRunsAndIsNotPending() {
        let scheduler = TestScheduler()
        let ran = Counter()
        let cancellation = scheduler.schedule(after: .milliseconds(10)) { ran.increment() }
        cancellation.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(ran.value, 0)
    }

    func testRunJumpsFromJobToJobUntilNoneIsLeft() {
        let scheduler = TestScheduler()
        let log = RunLog()
        scheduler.schedule(after: .seconds(3600)) {
            log.append("an hour")
            scheduler.schedule(after: .seconds(60)) { log.append("a minute later") }
        }
        scheduler.run()
        XCTAssertEqual(log.entries, ["an hour", "a minute later"])
        XCTAssertEqual(scheduler.now, .seconds(3660))
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testAdvancingToAnEarlierTimeDoesNotMoveTheClockBack() {
        let scheduler = TestScheduler()
        scheduler.advance(to: .milliseconds(50))
        scheduler.advance(to: .milliseconds(20))
        XCTAssertEqual(scheduler.now, .milliseconds(50))
    }

    func testANegativeDelayRunsAtTheCurrentTime() {
        let scheduler = TestScheduler()
        scheduler.advance(to: .milliseconds(50))
        let seen = Mutex<Duration?>(nil)
        scheduler.schedule(after: .milliseconds(-20)) { seen.withLock { $0 = scheduler.now } }
        scheduler.advance(by: .zero)
        XCTAssertEqual(seen.withLock { $0 }, .milliseconds(50))
    }
}

/// An ordered record of what ran, safe from any thread.
final class RunLog: Sendable {
    private let lines = Mutex<[String]>([])
    var entries: [String] { lines.withLock { $0 } }
    func append(_ line: String) { lines.withLock { $0.append(line) } }
}

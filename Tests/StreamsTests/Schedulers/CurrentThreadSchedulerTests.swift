// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import Streams
import StreamsTesting
import Synchronization
import XCTest

final class CurrentThreadSchedulerTests: XCTestCase {
    func testWorkScheduledFromOutsideRunsAtOnceOnTheCallingThread() {
        let log = EventRecorder<String>()
        CurrentThreadScheduler().schedule { log.watcher.data("ran") }
        XCTAssertEqual(log.values, ["ran"])
    }

    func testWorkScheduledFromScheduledWorkRunsAfterItReturns() {
        let scheduler = CurrentThreadScheduler()
        let log = Mutex<[String]>([])
        scheduler.schedule {
            log.withLock { $0.append("outer-start") }
            scheduler.schedule { log.withLock { $0.append("inner") } }
            log.withLock { $0.append("outer-end") }
        }
        XCTAssertEqual(log.withLock { $0 }, ["outer-start", "outer-end", "inner"])
        XCTAssertFalse(CurrentThreadScheduler.isRunning)
    }

    func testRecursiveSchedulingUsesConstantStack() {
        let scheduler = CurrentThreadScheduler()
        let remaining = Atomic<Int>(200_000)
        @Sendable func step() {
            if remaining.subtract(1, ordering: .relaxed).newValue > 0 { scheduler.schedule(step) }
        }
        scheduler.schedule(step)
        XCTAssertEqual(remaining.load(ordering: .relaxed), 0)
    }

    func testCancelledQueuedWorkNeverRuns() {
        let scheduler = CurrentThreadScheduler()
        let ran = Atomic<Bool>(false)
        scheduler.schedule {
            let queued = scheduler.schedule(after: .zero) { ran.store(true, ordering: .relaxed) }
            queued.dispose()
        }
        XCTAssertFalse(ran.load(ordering: .relaxed))
    }

    func testDelayedWorkRunsLaterWithoutBlockingTheCaller() {
        let scheduler = CurrentThreadScheduler()
        let ran = expectation(description: "delayed work ran")
        let before = scheduler.now
        scheduler.schedule(after: .milliseconds(20)) { ran.fulfill() }
        XCTAssertLessThan(scheduler.now - before, .milliseconds(20))
        wait(for: [ran], timeout: 10)
    }

    func testAStreamWatchedOnItReSubscribesInALoop() {
        // retry of a synchronous failure, each attempt started through the trampoline.
        let attempts = Atomic<Int>(0)
        let failing = DataStream<Int> { watcher in
            attempts.add(1, ordering: .relaxed)
            watcher.error(CancellationError())
            return Disposable()
        }.watch(on: CurrentThreadScheduler())
        let recorder = EventRecorder<Int>()
        recorder.watch(failing.retry(10_000))
        XCTAssertEqual(attempts.load(ordering: .relaxed), 10_001)
        XCTAssertNotNil(recorder.error)
    }
}

final class LimitedConcurrencySchedulerTests: XCTestCase {
    func testNoMoreThanTheLimitRunAtOnceAndAllRun() {
        let scheduler = LimitedConcurrencyScheduler(maxConcurrentJobs: 2)
        let running = Atomic<Int>(0)
        let peak = Atomic<Int>(0)
        let done = DispatchGroup()
        for _ in 0..<12 {
            done.enter()
            scheduler.schedule {
                let now = running.add(1, ordering: .acquiringAndReleasing).newValue
                var seen = peak.load(ordering: .relaxed)
                while now > seen, !peak.compareExchange(expected: seen, desired: now, ordering: .relaxed).exchanged {
                    seen = peak.load(ordering: .relaxed)
                }
                // Long enough that the other jobs are waiting for a place meanwhile.
                Thread.sleep(forTimeInterval: 0.005)
                running.subtract(1, ordering: .acquiringAndReleasing)
                done.leave()
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(peak.load(ordering: .relaxed), 2)
    }

    func testWithALimitOfOneJobsRunInTheOrderScheduled() {
        let scheduler = LimitedConcurrencyScheduler(maxConcurrentJobs: 1)
        let order = Mutex<[Int]>([])
        let done = DispatchGroup()
        for index in 0..<50 {
            done.enter()
            scheduler.schedule {
                order.withLock { $0.append(index) }
                done.leave()
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(order.withLock { $0 }, Array(0..<50))
    }

    func testACancelledWaitingJobIsSkipped() {
        let scheduler = LimitedConcurrencyScheduler(maxConcurrentJobs: 1)
        let gate = DispatchSemaphore(value: 0)
        let ran = Mutex<[String]>([])
        let finished = expectation(description: "last job ran")
        scheduler.schedule { gate.wait() }
        let cancelled = scheduler.schedule(after: .zero) { ran.withLock { $0.append("cancelled") } }
        scheduler.schedule {
            ran.withLock { $0.append("last") }
            finished.fulfill()
        }
        cancelled.dispose()
        gate.signal()
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(ran.withLock { $0 }, ["last"])
    }

    func testDecodingEveryAvatarOfABurstStaysWithinTheLimit() {
        let scheduler = LimitedConcurrencyScheduler(maxConcurrentJobs: 3)
        let peak = Atomic<Int>(0)
        let stream = DataStream.from(1...30).redirect { avatar in
            DataStream.just(avatar).watch(on: scheduler).map { value -> Int in
                peak.store(max(peak.load(ordering: .relaxed), scheduler.runningCount), ordering: .relaxed)
                return value
            }
        }
        let values = EventRecorder<Int>()
        values.watch(stream)
        let deadline = Date().addingTimeInterval(10)
        while !values.isTerminated, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        XCTAssertEqual(values.values.sorted(), Array(1...30))
        XCTAssertLessThanOrEqual(peak.load(ordering: .relaxed), 3)
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import NetCore
import Streams
import XCTest
@testable import HTTP

/// Timed work runs on the loop that scheduled it, each loop with a scheduler of its own.
final class CurrentLoopSchedulerTests: XCTestCase {
    private let fallback = EventLoop(label: "test.fallback")
    private lazy var scheduler = CurrentLoopScheduler(fallback: fallback)

    /// Schedules `delay` from `origin` (nil: from the test thread) and reports the loop the work ran on.
    private func loopRunningWork(scheduledFrom origin: EventLoop?, after delay: Duration = .milliseconds(5)) throws -> EventLoop {
        let ran = expectation(description: "ran")
        let runner = Locked<EventLoop?>(nil)
        let scheduler = self.scheduler
        let schedule: @Sendable () -> Void = {
            scheduler.schedule(after: delay) {
                runner.withLock { $0 = EventLoop.current }
                ran.fulfill()
            }
        }
        if let origin { origin.execute(schedule) } else { schedule() }
        wait(for: [ran], timeout: 5)
        return try XCTUnwrap(runner.withLock { $0 })
    }

    func testWorkScheduledOnALoopRunsOnThatLoop() throws {
        let first = EventLoop(label: "test.first"), second = EventLoop(label: "test.second")
        XCTAssertTrue(try loopRunningWork(scheduledFrom: first) === first)
        XCTAssertTrue(try loopRunningWork(scheduledFrom: second) === second)
        XCTAssertEqual(scheduler.loopCount, 2)
    }

    func testWorkScheduledOffEveryLoopRunsOnTheFallback() throws {
        XCTAssertTrue(try loopRunningWork(scheduledFrom: nil) === fallback)
        XCTAssertEqual(scheduler.loopCount, 0)
    }

    func testEachLoopKeepsOneScheduler() throws {
        let loop = EventLoop(label: "test.again")
        for _ in 0..<3 { XCTAssertTrue(try loopRunningWork(scheduledFrom: loop) === loop) }
        XCTAssertEqual(scheduler.loopCount, 1)
    }

    func testCurrentLoopIsNilOffEveryLoopAndTheLoopOnIt() {
        XCTAssertNil(EventLoop.current)
        for engine in [EventLoop.Engine.epoll, .dispatch] {
            let loop = EventLoop(label: "test.current.\(engine)", engine: engine)
            let seen = loop.sync { EventLoop.current }
            XCTAssertTrue(seen === loop, "\(engine)")
        }
    }

    func testTwoSchedulersOnOneLoopEachKeepTheirOwnLoopScheduler() {
        let loop = EventLoop(label: "test.two")
        let other = CurrentLoopScheduler(fallback: fallback)
        let (mine, theirs) = loop.sync { (scheduler.current, other.current) }
        XCTAssertFalse(mine === theirs)
        XCTAssertTrue(loop.sync { scheduler.current } === mine, "found again on the loop")
        XCTAssertTrue(mine.loop === loop && theirs.loop === loop)
    }

    func testALoopLocalObjectIsNotKeptAliveByTheLoop() {
        final class Object: Sendable {}
        let loop = EventLoop(label: "test.local")
        weak var released: Object?
        loop.sync {
            let object = Object()
            released = object
            loop.setLoopLocal(object, for: 7)
            XCTAssertTrue(loop.loopLocal(7) === object)
        }
        XCTAssertNil(released, "the loop does not keep it alive (its owner is the only reader of its key)")
    }

    func testALoopsSchedulerIsFreedWithItsCurrentLoopScheduler() {
        let loop = EventLoop(label: "test.local.owner")
        weak var released: EventLoopScheduler?
        do {
            let scheduler = CurrentLoopScheduler(fallback: fallback)
            loop.sync {
                released = scheduler.current
                // An armed timer: the loop's scheduler holds a timer whose handler refers to it.
                scheduler.schedule(after: .seconds(60)) {}
            }
            XCTAssertNotNil(released)
        }
        XCTAssertNil(released, "freed (off its loop) with its owner, its timer cancelled")
        loop.sync {}
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import StreamServiceConcurrency
import NetCore
import XCTest

/// An `EventLoop` is held by its thread unretained (no weak reference: see `CurrentEventLoop.Reference`):
/// it is still freed when its users drop it, from any thread, and what its thread runs afterwards
/// no longer sees it.
final class EventLoopLifetimeTests: XCTestCase {
    func testALoopDroppedOffItsThreadIsFreed() {
        weak var released: EventLoop?
        do {
            let loop = EventLoop(label: "test.loop-lifetime")
            released = loop
            XCTAssertTrue(loop.sync { EventLoop.current === loop })
        }
        XCTAssertNil(released)
    }

    func testALoopDroppedOnItsOwnThreadLeavesLaterWorkWithoutACurrentLoop() {
        final class Holder: @unchecked Sendable {
            var loop: EventLoop?
        }
        weak var released: EventLoop?
        let holder = Holder()
        let gate = DispatchSemaphore(value: 0)
        let ranAfter = expectation(description: "work queued behind the loop's end ran")
        let seen = Locked<Bool?>(nil)
        do {
            let loop = EventLoop(label: "test.loop-lifetime.own")
            released = loop
            holder.loop = loop
            loop.execute {
                gate.wait()
                holder.loop = nil // the last reference, dropped on the loop's own thread
            }
            loop.execute {
                seen.withLock { $0 = EventLoop.current != nil }
                ranAfter.fulfill()
            }
        }
        gate.signal()
        wait(for: [ranAfter], timeout: 5)
        XCTAssertNil(released)
        XCTAssertEqual(seen.withLock { $0 }, false, "the thread no longer reaches the freed loop")
    }

    func testWorkQueuedBeforeALoopIsDroppedElsewhereStillRunsOnItAsCurrent() {
        // The deinit, off the loop's thread, waits for the thread to forget the loop: after what was queued first.
        weak var released: EventLoop?
        let seen = Locked<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        do {
            let loop = EventLoop(label: "test.loop-lifetime.queued")
            released = loop
            let gate = DispatchSemaphore(value: 0)
            loop.execute { gate.wait() }
            for _ in 0..<3 { loop.execute { seen.withLock { $0.append(EventLoop.current != nil) } } }
            loop.execute { done.signal() }
            gate.signal()
        }
        XCTAssertNil(released)
        done.wait()
        XCTAssertEqual(seen.withLock { $0 }, [true, true, true], "queued before the loop went: ran while it was alive")
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import XCTest
import Streams
import StreamsTesting

final class ImmediateSchedulerTests: XCTestCase {
    func testWorkRunsOnTheCallingThreadBeforeScheduleReturns() {
        let ran = Counter()
        ImmediateScheduler().schedule { ran.increment() }
        XCTAssertEqual(ran.value, 1)
    }

    func testWorkWithoutDelayRunsAtOnce() {
        let ran = Counter()
        ImmediateScheduler().schedule(after: .zero) { ran.increment() }
        XCTAssertEqual(ran.value, 1)
    }

    func testDelayedWorkRunsLaterAndCanBeCancelled() {
        let scheduler = ImmediateScheduler()
        let cancelled = Counter()
        let ran = expectation(description: "delayed work ran")
        scheduler.schedule(after: .milliseconds(10)) { ran.fulfill() }
        scheduler.schedule(after: .milliseconds(5)) { cancelled.increment() }.dispose()
        wait(for: [ran], timeout: 10)
        XCTAssertEqual(cancelled.value, 0)
    }
}

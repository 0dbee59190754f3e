// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import StreamsTesting
import XCTest

/// StreamsTesting's repeating timer on virtual time, used directly (the `interval` tests use it
/// through the operator).
final class VirtualRepeatingSchedulerTests: XCTestCase {
    /// A timer asked at 10 ms for a 50 ms delay and a 100 ms period, noting the virtual time of each run.
    private func startTimer(on scheduler: VirtualRepeatingScheduler) -> (runs: Locked<[Duration]>, timer: Disposable) {
        let base = scheduler.base
        let runs = Locked<[Duration]>([])
        base.advance(to: .milliseconds(10))
        let timer = scheduler.scheduleRepeating(after: .milliseconds(50), every: .milliseconds(100)) {
            // Runs come on the thread that advances the clock, one at a time.
            runs.set(runs.get() + [base.now])
        }
        return (runs, timer)
    }

    func testRunKFiresAtTheDelayAndKPeriodsFromWhenTheTimerWasAsked() {
        let base = TestScheduler()
        let (runs, timer) = startTimer(on: VirtualRepeatingScheduler(base: base))
        base.advance(to: .milliseconds(400))
        XCTAssertEqual(runs.get(), [.milliseconds(60), .milliseconds(160), .milliseconds(260), .milliseconds(360)])
        timer.dispose()
    }

    func testAStrideFiresOnlyEveryStrideThPeriod() {
        let base = TestScheduler()
        let (runs, timer) = startTimer(on: VirtualRepeatingScheduler(base: base, stride: 2))
        base.advance(to: .milliseconds(400))
        XCTAssertEqual(runs.get(), [.milliseconds(60), .milliseconds(260)])
        timer.dispose()
    }

    func testDisposingTheTimerLeavesNoRunPending() {
        let base = TestScheduler()
        let (runs, timer) = startTimer(on: VirtualRepeatingScheduler(base: base))
        base.advance(to: .milliseconds(100))
        timer.dispose()
        XCTAssertEqual(base.pendingCount, 0)
        base.advance(to: .seconds(1))
        XCTAssertEqual(runs.get(), [.milliseconds(60)])
    }
}

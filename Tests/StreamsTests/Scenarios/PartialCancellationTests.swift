// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import StreamsTesting
import XCTest

/// Partial cancellation with a hop to a worker: one shared source feeds two screens,
/// each doing its heavy part on a worker scheduler and coming back to the main one.
/// Closing one screen cancels only its branch (including the work queued on the
/// worker); the source keeps running for the other until it closes too.
final class PartialCancellationTests: XCTestCase {
    func testClosingOneBranchLeavesTheOtherAndTheLastCloseStopsTheSource() {
        let main = TestScheduler()
        let worker = TestScheduler()
        let source = main.hotStream([.data(100, 1), .data(200, 2), .data(300, 3), .data(400, 4)])
        let shared = source.share()
        func screen(_ factor: Int) -> DataStream<Int> {
            shared.observe(on: worker).map { $0 * factor }.observe(on: main)
        }
        let (first, firstSubscription) = main.record(screen(10))
        let (second, secondSubscription) = main.record(screen(100))
        main.at(250) { firstSubscription.dispose() }
        main.at(350) { secondSubscription.dispose() }
        for step in 1...4 {
            main.advance(to: .milliseconds(step * 100))
            worker.advance(to: .milliseconds(step * 100))   // the worker catches up
            main.advance(by: .zero)                         // and hands back to main
        }
        XCTAssertEqual(first.values, [10, 20])
        XCTAssertEqual(second.values, [100, 200, 300])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 350)])
        XCTAssertEqual(worker.pendingCount, 0)
    }

    func testClosingBeforeTheWorkerRunsDropsTheQueuedWork() {
        let main = TestScheduler()
        let worker = TestScheduler()
        let source = Streamer<Int>()
        let (recorder, subscription) = main.record(source.observe(on: worker).map { $0 * 2 }.observe(on: main))
        source.data(1)
        XCTAssertEqual(worker.pendingCount, 1)
        subscription.dispose()
        XCTAssertEqual(worker.pendingCount, 0)
        worker.advance(by: .seconds(1))
        main.advance(by: .seconds(1))
        XCTAssertEqual(recorder.events, [])
        XCTAssertEqual(source.watcherCount, 0)
    }
}

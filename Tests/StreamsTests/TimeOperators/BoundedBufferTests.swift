// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import StreamsTesting
import XCTest

/// `observe(on:buffer:)` with a consumer that is busy while four values arrive:
/// the scheduler only delivers once the test advances it.
final class ObserveOnBufferLimitTests: XCTestCase {
    private func deliver(_ limit: BufferLimit) -> (RecordingWatcher<Int>, Streamer<Int>, TestScheduler) {
        let scheduler = TestScheduler()
        let source = Streamer<Int>()
        let (recorder, _) = scheduler.record(source.observe(on: scheduler, buffer: limit))
        for value in 1...4 { source.data(value) }
        scheduler.advance(by: .zero)
        return (recorder, source, scheduler)
    }

    func testDropOldestKeepsTheLatestValuesAndCountsTheDropped() {
        let limit = BufferLimit.dropOldest(2)
        let (recorder, _, _) = deliver(limit)
        XCTAssertEqual(recorder.values, [3, 4])
        XCTAssertEqual(limit.droppedCount, 2)
    }

    func testDropNewestKeepsTheEarliestValuesAndCountsTheDropped() {
        let limit = BufferLimit.dropNewest(2)
        let (recorder, _, _) = deliver(limit)
        XCTAssertEqual(recorder.values, [1, 2])
        XCTAssertEqual(limit.droppedCount, 2)
    }

    func testFailDeliversTheWaitingValuesThenTheOverflowAndDisposesTheSource() {
        let limit = BufferLimit.fail(2)
        let (recorder, source, _) = deliver(limit)
        XCTAssertEqual(recorder.events, [.data(0, 1), .data(0, 2), .error(0, BufferOverflowError(capacity: 2))])
        XCTAssertEqual(source.watcherCount, 0)
        XCTAssertEqual(limit.droppedCount, 1)
    }

    func testTheLimitCountsWaitingValuesOnlySoAConsumerThatKeepsUpLosesNothing() {
        let scheduler = TestScheduler()
        let source = Streamer<Int>()
        let limit = BufferLimit.fail(2)
        let (recorder, _) = scheduler.record(source.observe(on: scheduler, buffer: limit))
        for value in 1...10 {
            source.data(value)
            scheduler.advance(by: .zero)
        }
        XCTAssertEqual(recorder.values, Array(1...10))
        XCTAssertEqual(limit.droppedCount, 0)
    }

    func testTheEndStillArrivesAfterDroppedValues() {
        let scheduler = TestScheduler()
        let limit = BufferLimit.dropNewest(1)
        let (recorder, _) = scheduler.record(DataStream.just(data: [1, 2, 3]).observe(on: scheduler, buffer: limit))
        scheduler.advance(by: .zero)
        XCTAssertEqual(recorder.events, [.data(0, 1), .end(0)])
    }

    func testTheDefaultIsBoundedAndFails() {
        XCTAssertEqual(BufferLimit.default.capacity, 65_536)
        XCTAssertEqual(BufferLimit.default.overflow, .fail)
    }
}

final class ValuesBufferLimitTests: XCTestCase {
    func testDropOldestKeepsOnlyTheLatestForASlowLoop() async throws {
        let limit = BufferLimit.dropOldest(1)
        var seen: [Int] = []
        for try await value in DataStream.just(data: [1, 2, 3, 4, 5]).values(buffer: limit) { seen.append(value) }
        XCTAssertEqual(seen, [5])
        XCTAssertEqual(limit.droppedCount, 4)
    }

    func testFailEndsTheLoopWithTheOverflowAfterTheWaitingValues() async {
        var seen: [Int] = []
        do {
            for try await value in DataStream.just(data: [1, 2, 3, 4]).values(buffer: .fail(2)) { seen.append(value) }
            XCTFail("expected the overflow")
        } catch {
            XCTAssertEqual(error as? BufferOverflowError, BufferOverflowError(capacity: 2))
        }
        XCTAssertEqual(seen, [1, 2])
    }

    func testTheOverflowDisposesTheSubscription() async {
        let source = Streamer<Int>()
        let values = source.values(buffer: .fail(1))
        source.data(1)
        source.data(2)
        XCTAssertEqual(source.watcherCount, 0)
        _ = values
    }

    func testUnboundedKeepsEverything() async throws {
        let values = try await DataStream.from(0..<100_000).values(buffer: .unbounded).reduce(0) { count, _ in count + 1 }
        XCTAssertEqual(values, 100_000)
    }
}

/// A buffer the library does not hold (the HTTP layer's output buffer, in bytes)
/// applies the same limit through `overflow(waiting:unit:)`.
final class ExternalBufferLimitTests: XCTestCase {
    func testWithinTheCapacityNothingOverflows() {
        let limit = BufferLimit.fail(1_024)
        XCTAssertNil(limit.overflow(waiting: 1_024, unit: "bytes"))
        XCTAssertEqual(limit.droppedCount, 0)
    }

    func testPastTheCapacityTheOverflowIsCountedAndNamesItsUnit() {
        let limit = BufferLimit.fail(1_024)
        let overflow = limit.overflow(waiting: 1_025, unit: "bytes")
        XCTAssertEqual(overflow, BufferOverflowError(capacity: 1_024, unit: "bytes"))
        XCTAssertEqual(overflow.map(String.init(describing:)), "the consumer fell more than 1024 bytes behind")
        XCTAssertEqual(limit.droppedCount, 1)
    }
}

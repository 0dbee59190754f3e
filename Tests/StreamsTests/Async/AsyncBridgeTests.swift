// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

final class AsyncBridgeTests: XCTestCase {
    func testValuesIteratesEveryValue() async throws {
        var collected: [Int] = []
        for try await value in DataStream.just(data: [1, 2, 3]).values { collected.append(value) }
        XCTAssertEqual(collected, [1, 2, 3])
    }

    func testValuesThrowsTheStreamsError() async {
        do {
            for try await _ in DataStream<Int>.just(error: TestError.boom).values {}
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? TestError, .boom)
        }
    }

    func testFirstReturnsTheFirstValueAndStopsTheSource() async throws {
        let value = try await DataStream.from(1...).first()
        XCTAssertEqual(value, 1)
    }

    func testFirstOfAnEmptyStreamIsNil() async throws {
        let value = try await DataStream<Int>.empty().first()
        XCTAssertNil(value)
    }

    func testArrayCollectsAllValues() async throws {
        let values = try await DataStream.just(data: [1, 2, 3]).array()
        XCTAssertEqual(values, [1, 2, 3])
    }

    func testToArrayFirstAsInTheDesign() async throws {
        let values = try await DataStream.just(data: [1, 2]).toArray().first()
        XCTAssertEqual(values, [1, 2])
    }

    func testCancellingTheTaskDisposesTheSubscription() async throws {
        let streamer = Streamer<Int>()
        let watching = expectation(description: "watching")
        let task = Task {
            try await streamer.call(watched: { watching.fulfill() }).first()
        }
        await fulfillment(of: [watching], timeout: 5)
        // `watched` runs just before the subscription reaches the streamer, on the task's thread:
        // this side can look first (once in 10 full runs), so it polls, bounded.
        let deadline = ContinuousClock.now + .seconds(5)
        while streamer.watcherCount == 0, ContinuousClock.now < deadline { await Task.yield() }
        XCTAssertEqual(streamer.watcherCount, 1)
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError)
        }
        XCTAssertEqual(streamer.watcherCount, 0)
    }

    func testAnAsyncClosureStreamEmitsItsResultThenEnds() async throws {
        let values = try await DataStream<Int> { try await Task.sleep(for: .zero); return 5 }.array()
        XCTAssertEqual(values, [5])
    }

    func testAnAsyncClosureStreamDeliversItsThrowAsAnError() async {
        do {
            _ = try await DataStream<Int> { throw TestError.boom }.first()
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? TestError, .boom)
        }
    }

    func testDisposingCancelsTheAsyncClosuresTask() {
        let started = expectation(description: "started")
        let cancelled = expectation(description: "cancelled")
        let subscription = DataStream<Int> {
            started.fulfill()
            await withTaskCancellationHandler {
                await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            } onCancel: {
                cancelled.fulfill()
            }
            return 1
        }.watch { _ in }
        wait(for: [started], timeout: 5)
        subscription.dispose()
        wait(for: [cancelled], timeout: 5)
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import XCTest
import Streams
import StreamsTesting

/// Contract 1: `data* (error | end)?`, nothing after a terminal event, and the
/// operator receiving a terminal event disposes its upstream.
final class GrammarContractTests: XCTestCase {
    func testMergeDeliversNothingAfterItsError() {
        let a = Streamer<Int>(), b = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        DataStream.merge(a, b).watch(using: recorder.watcher)
        a.error(TestError.boom)
        b.data(1)
        b.end()
        XCTAssertEqual(recorder.events, [.error(TestError.boom)])
    }

    func testZipDeliversASingleTerminalEventWhenBothSourcesFail() {
        let a = Streamer<Int>(), b = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        DataStream.zip(a, b).map { $0 + $1 }.watch(using: recorder.watcher)
        a.error(TestError.boom)
        b.error(TestError.other)
        XCTAssertEqual(recorder.events, [.error(TestError.boom)])
    }

    func testAHandWrittenSourceEmittingAfterItsEndIsIgnoredThroughOperators() {
        let recorder = EventRecorder<Int>()
        DataStream<Int> { watcher in
            watcher.end()
            watcher.data(1)
            watcher.error(TestError.boom)
            return Disposable()
        }.map { $0 * 2 }.filter { _ in true }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.end])
    }

    func testAnErrorDisposesTheUpstreamBeforeItIsDeliveredDownstream() {
        let source = Streamer<Int>()
        let countWhenErrorArrived = Counter()
        source.map { _ -> Int in throw TestError.boom }.watch { event in
            if event.isTerminal, source.watcherCount == 0 { countWhenErrorArrived.increment() }
        }
        source.data(1)
        XCTAssertEqual(countWhenErrorArrived.value, 1)
    }

    func testDisposingTwiceThroughAPipelineIsHarmless() {
        let source = Streamer<Int>()
        let subscription = source.map { $0 }.redirect { DataStream.just($0) }.watch { _ in }
        subscription.dispose()
        subscription.dispose()
        XCTAssertTrue(subscription.isDisposed)
        XCTAssertEqual(source.watcherCount, 0)
    }

    func testAWatcherFedAfterDisposalReceivesNothing() {
        let recorder = EventRecorder<Int>()
        let captured = Locked<Watcher<Int>?>(nil)
        let subscription = DataStream<Int> { watcher in
            captured.set(watcher)
            return Disposable()
        }.watch(using: recorder.watcher)
        subscription.dispose()
        captured.get()?.data(1)
        captured.get()?.end()
        XCTAssertEqual(recorder.events, [])
    }
}

/// A tiny lock-protected box for tests.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func get() -> Value { mutex.withLock { $0 } }
    func set(_ value: Value) { mutex.withLock { $0 = value } }
}

import Synchronization

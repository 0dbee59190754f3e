// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Dispatch
import XCTest
import Streams
import StreamsTesting

/// Contract 4: every public type is safe to use from any thread.
final class ThreadSafetyContractTests: XCTestCase {
    func testDisposingFromManyThreadsAtOnceRunsTheActionOnce() {
        let runs = Counter()
        for _ in 0..<200 {
            let disposable = Disposable { runs.increment() }
            DispatchQueue.concurrentPerform(iterations: 4) { _ in disposable.dispose() }
        }
        XCTAssertEqual(runs.value, 200)
    }

    func testWatchingAndDisposingWhileAnotherThreadEmitsLeavesNoWatcherBehind() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let streamer = Streamer<Int>()
        let emitting = CancelFlag()
        let emitterDone = expectation(description: "emitter stopped")
        DispatchQueue.global().async {
            for value in 0..<2_000_000 where !emitting.isCancelled {
                streamer.data(value)
            }
            emitterDone.fulfill()
        }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<500 {
                streamer.map { $0 + 1 }.filter { $0 > 0 }.watch { _ in }.dispose()
            }
        }
        emitting.cancel()
        wait(for: [emitterDone], timeout: 30)
        XCTAssertEqual(streamer.watcherCount, 0)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
    }

    func testASubjectFedAndEndedFromManyThreadsDeliversOneTerminalEvent() {
        for _ in 0..<100 {
            let subject = ReplayStreamer<Int>(bufferSize: 4)
            let terminals = Counter()
            let afterTerminal = Counter()
            let ended = Locked(false)
            subject.watch { event in
                if ended.get() { afterTerminal.increment() }
                if event.isTerminal {
                    ended.set(true)
                    terminals.increment()
                }
            }
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                subject.data(index)
                if index % 2 == 0 { subject.end() } else { subject.error(TestError.boom) }
                subject.data(index)
            }
            XCTAssertEqual(terminals.value, 1)
            XCTAssertEqual(afterTerminal.value, 0)
        }
    }

    func testValueStreamerReadFromManyThreadsWhileWritten() {
        let subject = ValueStreamer(0)
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            for value in 0..<5_000 {
                if index == 0 { subject.data(value) } else { _ = subject.value }
            }
        }
        XCTAssertEqual(subject.value, 4_999)
    }

    func testShareConnectedAndDisconnectedFromManyThreadsEndsDisconnected() {
        let source = Streamer<Int>()
        let shared = source.share()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<1_000 { shared.watch { _ in }.dispose() }
        }
        XCTAssertEqual(source.watcherCount, 0)
    }
}

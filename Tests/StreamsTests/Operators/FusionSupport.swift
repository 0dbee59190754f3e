// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import Streams
import StreamsTesting
import Synchronization
import XCTest

/// The same values as `from`, through a hand-written source that operators cannot fuse:
/// the baseline a fused pipeline must match.
func unfused<S: Sequence & Sendable>(_ values: S) -> DataStream<S.Element> {
    DataStream { watcher in
        for value in values {
            if watcher.isStopped { break }
            watcher.data(value)
        }
        watcher.end()
        return Disposable()
    }
}

/// Everything `stream` delivers to one watcher, which for a synchronous stream is all of it.
func events<E: Sendable>(_ stream: DataStream<E>) -> [Event<E>] {
    let recorder = EventRecorder<E>()
    stream.watch(using: recorder.watcher)
    return recorder.events
}

/// Runs `pipeline` over an endless fused source, which only a notifier fired from another thread
/// (once the first value is pulled) can stop: it must end with `.end` alone and free everything.
func assertAnotherThreadStopsAnEndlessFusedSource(
    _ pipeline: (DataStream<Int>) -> DataStream<Int>, file: StaticString = #filePath, line: UInt = #line
) {
    let baseline = StreamDiagnostics.liveSubscriptions
    let flowing = DispatchSemaphore(value: 0)
    let signalled = Atomic<Bool>(false)
    let notifier = Streamer<Int>()
    DispatchQueue.global().async {
        flowing.wait()
        notifier.data(0)
    }
    let recorder = EventRecorder<Int>()
    let recording = recorder.watcher
    let terminated = DispatchSemaphore(value: 0)
    let endless = DataStream.from(1...).map { x -> Int in
        if !signalled.exchange(true, ordering: .relaxed) { flowing.signal() }
        return x
    }
    pipeline(endless).takeUntil(notifier).watch(using: Watcher { event in
        recording.event(event)
        if event.isTerminal { terminated.signal() }
    })
    // The notifier's thread stops the source before its `.end` travels on (a watcher frees its
    // upstream first), so `watch` can return here before that `.end` is recorded (once in 16 full runs).
    XCTAssertEqual(terminated.wait(timeout: .now() + 5), .success, "no terminal event within 5 s", file: file, line: line)
    XCTAssertEqual(recorder.events, [.end], file: file, line: line)
    XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline, file: file, line: line)
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

final class BufferCountTests: XCTestCase {
    func testBufferEmitsFullArraysAndThePartOfOneLeftAtTheEnd() {
        let recorder = EventRecorder<[Int]>()
        DataStream.just(data: [1, 2, 3, 4, 5]).buffer(count: 2).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data([1, 2]), .data([3, 4]), .data([5]), .end])
    }

    func testNoEmptyArrayIsEmittedAtTheEnd() {
        let recorder = EventRecorder<[Int]>()
        DataStream.just(data: [1, 2]).buffer(count: 2).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data([1, 2]), .end])
    }

    func testAnErrorDropsThePartlyFilledArray() {
        let source = Streamer<Int>()
        let recorder = EventRecorder<[Int]>()
        source.buffer(count: 2).watch(using: recorder.watcher)
        source.data(1)
        source.data(2)
        source.data(3)
        source.error(TestError.boom)
        XCTAssertEqual(recorder.events, [.data([1, 2]), .error(TestError.boom)])
    }

    func testACountBelowOneIsTreatedAsOne() {
        let recorder = EventRecorder<[Int]>()
        DataStream.just(data: [1, 2]).buffer(count: 0).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data([1]), .data([2]), .end])
    }

    func testDisposingReleasesTheSourceAndTheSubscription() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let source = Streamer<Int>()
        let subscription = source.buffer(count: 2).watch { _ in }
        source.data(1)
        subscription.dispose()
        XCTAssertEqual(source.watcherCount, 0)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
    }
}

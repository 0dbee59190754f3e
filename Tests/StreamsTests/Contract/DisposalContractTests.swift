// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// Contract 3: disposal propagates upstream and releases every closure; a stream
/// that ends or fails frees its resources too; the live counter returns to baseline.
final class DisposalContractTests: XCTestCase {
    func testDisposingAPipelineReturnsTheLiveCounterToBaseline() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let source = Streamer<Int>(), other = Streamer<Int>()
        let subscription = DataStream.merge(source.map { $0 }, other.asDataStream())
            .redirect { DataStream.zip(DataStream.just($0), other).map { $0 + $1 } }
            .scan(0, +)
            .watch { _ in }
        source.data(1)
        XCTAssertGreaterThan(StreamDiagnostics.liveSubscriptions, baseline)
        subscription.dispose()
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
        XCTAssertEqual(source.watcherCount, 0)
        XCTAssertEqual(other.watcherCount, 0)
    }

    func testAnEndedPipelineReturnsTheLiveCounterToBaselineWithoutDispose() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let source = Streamer<Int>()
        let subscription = source.concatMap { DataStream.just(data: [$0, $0]) }.take(3).watch { _ in }
        source.data(1)
        source.data(2)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
        withExtendedLifetime(subscription) {}
    }

    func testAFailedPipelineReturnsTheLiveCounterToBaselineWithoutDispose() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let source = Streamer<Int>(), other = Streamer<Int>()
        let subscription = DataStream.combineLatest(source, other).map { $0 + $1 }.retry(2).watch { _ in }
        source.error(TestError.boom)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
        withExtendedLifetime(subscription) {}
    }

    func testDisposingReleasesTheOperatorsClosures() {
        weak var released: Token?
        let source = Streamer<Int>()
        var subscription: Disposable?
        do {
            let token = Token()
            released = token
            subscription = source.map { _ in token }.filter { _ in true }.watch { _ in }
        }
        XCTAssertNotNil(released)
        subscription?.dispose()
        XCTAssertNil(released)
    }

    func testEndingReleasesTheOperatorsClosuresWhileTheSubscriptionIsStillHeld() {
        weak var released: Token?
        let source = Streamer<Int>()
        var subscription: Disposable?
        do {
            let token = Token()
            released = token
            subscription = source.redirect { _ in DataStream.just(token) }.watch { _ in }
        }
        source.end()
        XCTAssertNil(released)
        withExtendedLifetime(subscription) {}
    }

    func testDisposeBagDisposesAPipelineWhenItGoes() {
        let source = Streamer<Int>()
        do {
            let bag = DisposeBag()
            source.map { $0 }.watch { _ in }.disposed(by: bag)
            XCTAssertEqual(source.watcherCount, 1)
        }
        XCTAssertEqual(source.watcherCount, 0)
    }

    func testReleasingADisposableWithoutDisposingKeepsTheSubscription() {
        let source = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        do {
            _ = source.map { $0 }.watch(using: recorder.watcher)
        }
        source.data(1)
        XCTAssertEqual(recorder.values, [1])
    }
}

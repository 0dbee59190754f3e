// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import StreamsTesting
import XCTest

/// An operator's inner subscriptions started under its own (`PendingSubscriptions.watch(under:)`):
/// adopted once, whether the inner stream registered itself while setting up or not, and
/// disposed with the operator's subscription.
final class PendingSubscriptionsAdoptionTests: XCTestCase {
    /// A stream type that returns its own disposable without setting up a subscription of ours.
    private struct Unregistered: StreamType {
        let cancelled: Counter
        func watch(using watcher: Watcher<Int>) -> Disposable { Disposable { cancelled.increment() } }
    }

    func testAnInnerStreamThatSetsItselfUpIsDisposedWithItsOperatorsSubscription() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let cancelled = Counter()
        let subject = Streamer<Int>()
        let subscription = subject.asDataStream().redirect { _ in DataStream<Int> { _ in Disposable { cancelled.increment() } } }
            .watch(data: { _ in })
        subject.data(1)
        subject.data(2)
        XCTAssertEqual(cancelled.value, 0)
        subscription.dispose()
        XCTAssertEqual(cancelled.value, 2)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
    }

    func testAnInnerStreamOfAnotherTypeIsDisposedWithItsOperatorsSubscription() {
        let cancelled = Counter()
        let subject = Streamer<Int>()
        let subscription = subject.asDataStream().redirect { _ in Unregistered(cancelled: cancelled) }.watch(data: { _ in })
        subject.data(1)
        subscription.dispose()
        XCTAssertEqual(cancelled.value, 1)
    }

    func testAnInnerStreamWhoseValueEndsItsOperatorDuringItsSetupIsDisposed() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let cancelled = Counter()
        let subject = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        subject.asDataStream().redirect { value in
            DataStream<Int> { watcher in
                watcher.data(value)
                return Disposable { cancelled.increment() }
            }
        }.take(1).watch(using: recorder.watcher)
        subject.data(7)
        XCTAssertEqual(recorder.events, [.data(7), .end])
        XCTAssertEqual(cancelled.value, 1)
        XCTAssertEqual(subject.watcherCount, 0)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
    }
}

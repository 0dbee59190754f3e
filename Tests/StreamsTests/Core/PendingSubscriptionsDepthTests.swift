// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import StreamsTesting
import XCTest

/// The pending-subscription stack past the 32 entries it starts with: subscriptions set up
/// inside one another deeper than that still reach the innermost source when stopped early.
final class PendingSubscriptionsDepthTests: XCTestCase {
    /// `source` behind `depth` streams, each watching the one inside it from its own setup.
    private func nested(_ source: DataStream<Int>, depth: Int) -> DataStream<Int> {
        (0..<depth).reduce(source) { inner, _ in
            DataStream<Int> { watcher in
                inner.watch(data: { watcher.data($0) }, error: { watcher.error($0) }, end: { watcher.end() })
            }
        }
    }

    func testAnEarlyStopReachesASourceNestedDeeperThanTheStacksFirstCapacity() {
        let produced = Counter()
        let source = DataStream.from(1...1_000_000).map { value in
            produced.increment()
            return value
        }
        let recorder = EventRecorder<Int>()
        nested(source, depth: 100).take(3).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .data(3), .end])
        XCTAssertEqual(produced.value, 3)
    }

    func testDisposingTheOutermostOfDeeplyNestedSubscriptionsReturnsTheLiveCounterToBaseline() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let subject = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        let subscription = nested(subject.asDataStream(), depth: 100).watch(using: recorder.watcher)
        subject.data(5)
        subscription.dispose()
        subject.data(6)
        XCTAssertEqual(recorder.values, [5])
        XCTAssertEqual(subject.watcherCount, 0)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
    }
}

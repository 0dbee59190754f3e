// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// A subscription a watcher starts while a synchronous source is delivering belongs
/// to that watcher's code, not to the source: the source ending must not end it.
final class NestedSubscriptionContractTests: XCTestCase {
    func testASubscriptionStartedInsideASynchronousDeliveryOutlivesTheSourceEnding() {
        let feed = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        DataStream.just(1).watch(data: { _ in
            feed.asDataStream().map { $0 }.watch(using: recorder.watcher)
        })
        feed.data(7)
        XCTAssertEqual(recorder.values, [7])
        XCTAssertEqual(feed.watcherCount, 1)
    }

    func testASubscriptionStartedInsideAnOperatorChainDeliveryOutlivesTheChainEnding() {
        let feed = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2]).map { $0 * 10 }.take(1).watch(data: { _ in
            feed.asDataStream().map { $0 }.watch(using: recorder.watcher)
        })
        feed.data(7)
        XCTAssertEqual(recorder.values, [7])
    }
}

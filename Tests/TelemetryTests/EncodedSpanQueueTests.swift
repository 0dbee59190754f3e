// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import Telemetry

/// `EncodedSpanQueue`: the batch taking spans kept apart from the full ones leaves after them.
final class EncodedSpanQueueTests: XCTestCase {
    private static func append(_ byte: UInt8, to queue: inout EncodedSpanQueue) -> Bool {
        queue.append { $0.append([byte]) }
    }

    func testBatchesLeaveInTheOrderTheirSpansEnded() {
        var queue = EncodedSpanQueue(batchSize: 3, maxQueueSize: 100)
        for byte in UInt8(0)..<7 { XCTAssertTrue(Self.append(byte, to: &queue)) }
        XCTAssertEqual(queue.count, 7)
        XCTAssertEqual(queue.firstCount, 3)
        XCTAssertEqual(queue.waiting.map { $0.spans.bytes }, [[0, 1, 2], [3, 4, 5], [6]])
        var left: [[UInt8]] = []
        while let batch = queue.removeFirst() { left.append(batch.spans.bytes) }
        XCTAssertEqual(left, [[0, 1, 2], [3, 4, 5], [6]])
        XCTAssertTrue(queue.isEmpty)
        XCTAssertEqual(queue.firstCount, 0)
    }

    func testASpanEndingAfterThePartBatchLeftStartsANewOne() {
        var queue = EncodedSpanQueue(batchSize: 3, maxQueueSize: 100)
        XCTAssertTrue(Self.append(1, to: &queue))
        XCTAssertEqual(queue.removeFirst()?.spans.bytes, [1])
        XCTAssertTrue(Self.append(2, to: &queue))
        XCTAssertEqual(queue.firstCount, 1)
        XCTAssertEqual(queue.removeFirst()?.spans.bytes, [2])
        XCTAssertNil(queue.removeFirst())
    }

    func testAFullQueueRefusesASpanAndRemoveAllCountsThoseDropped() {
        var queue = EncodedSpanQueue(batchSize: 2, maxQueueSize: 3)
        for byte in UInt8(0)..<3 { XCTAssertTrue(Self.append(byte, to: &queue)) }
        XCTAssertFalse(Self.append(9, to: &queue))
        XCTAssertEqual(queue.removeAll(), 3)
        XCTAssertTrue(queue.isEmpty)
        XCTAssertNil(queue.removeFirst())
    }
}

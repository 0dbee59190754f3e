// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import Telemetry

/// `ProtobufWriter`'s fast paths against their slow twins.
final class ProtobufWriterTests: XCTestCase {
    func testAShortCopyIsTheBytesInitializeCopies() {
        for count in 0...40 {
            let source = (0..<count).map { UInt8(truncatingIfNeeded: 0x41 + $0) }
            for offset in [0, 1, 3] {
                var fast = [UInt8](repeating: 0xAA, count: count + 8), slow = fast
                source.withUnsafeBufferPointer { source in
                    guard let from = source.baseAddress else { return }
                    fast.withUnsafeMutableBufferPointer { ProtobufWriter.copyShort(from, count: count, to: $0.baseAddress! + offset) }
                    slow.withUnsafeMutableBufferPointer { ($0.baseAddress! + offset).initialize(from: from, count: count) }
                }
                XCTAssertEqual(fast, slow, "\(count) at \(offset)")
            }
        }
    }
}

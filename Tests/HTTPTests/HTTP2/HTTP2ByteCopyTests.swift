// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamsTesting
import XCTest
@testable import HTTP

/// `HTTP2ByteCopy.array(_:)` (a block's layout and a DATA payload copied out) against `Array(_:)`,
/// its slow twin: the same bytes, from none to many.
final class HTTP2ByteCopyTests: XCTestCase {
    func testCopiedBytesAreTheBytesArrayMakes() {
        var random = SeededRandom(seed: 9114)
        for count in [0, 1, 7, 8, 9, 63, 300, 16_384] {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            bytes.withUnsafeBytes { raw in
                XCTAssertEqual(HTTP2ByteCopy.array(raw), Array(raw), "\(count) bytes")
            }
        }
    }
}

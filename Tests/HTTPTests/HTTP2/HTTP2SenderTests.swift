// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

/// `HTTP2Sender.sendHeaders` (the block encoded straight into the output after its frame header)
/// against its slow twin, the block encoded on its own and sent by `sendHeadersInPieces`.
final class HTTP2SenderTests: XCTestCase {
    func testHeadersWrittenInPlaceAreTheFramesOfTheBlockSentInPieces() {
        for frameSize in [16_384, 64, 20] {
            var fast = HTTP2Sender(limits: HTTP2ConnectionLimits())
            var slow = HTTP2Sender(limits: HTTP2ConnectionLimits())
            fast.maxFrameSize = frameSize
            slow.maxFrameSize = frameSize
            for (round, length) in [0, 1, 10, 19, 20, 21, 63, 64, 65, 200, 1_000].enumerated() {
                // Something already in the output: the header goes after it.
                if round % 3 == 1 {
                    fast.send(HTTP2Frame(streamID: 0, payload: .ping([1, 2, 3, 4, 5, 6, 7, 8])))
                    slow.send(HTTP2Frame(streamID: 0, payload: .ping([1, 2, 3, 4, 5, 6, 7, 8])))
                }
                let fields = [(name: ":status", value: "200"), (name: "x-round", value: "\(round)"),
                              (name: "x-value", value: String(repeating: "z~", count: length))]
                let endStream = round % 2 == 0
                let streamID = UInt32(2 * round + 1)
                fast.sendHeaders(streamID: streamID, fields: fields, endStream: endStream)
                let block = slow.encodedBlock(fields)
                slow.sendHeadersInPieces(streamID: streamID, block: block, endStream: endStream)
                var fastBytes: [UInt8] = [], slowBytes: [UInt8] = []
                fast.swapOutput(&fastBytes)
                slow.swapOutput(&slowBytes)
                XCTAssertEqual(fastBytes, slowBytes, "frame size \(frameSize), value of \(length)")
            }
        }
    }
}

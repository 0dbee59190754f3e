// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

extension HTTP2ConnectionStateMachine {
    /// `bytes` cut by `frames.next()` and handed over as `HTTP2Frame`s (`receive(_:)`), as the
    /// machine read its input before it read frames where they lie: the slow twin of `receive(bytes)`.
    func receiveAsWholeFrames(_ bytes: [UInt8], cutBy frames: inout HTTP2FrameDecoder) {
        frames.append(bytes)
        do {
            while phase != .failed, let frame = try frames.next() { receive(frame) }
        } catch {
            fail(error)
        }
    }
}

/// Fails with the first line where two runs' transcripts differ, not the whole transcripts.
func XCTAssertSameTranscript(_ inPlace: [String], _ whole: [String], _ message: String, file: StaticString = #filePath, line: UInt = #line) {
    let count = min(inPlace.count, whole.count)
    guard let index = (0..<count).first(where: { inPlace[$0] != whole[$0] }) ?? (inPlace.count == whole.count ? nil : count) else { return }
    XCTFail("\(message): \(inPlace.dropFirst(index).first ?? "nothing") | handed over whole: \(whole.dropFirst(index).first ?? "nothing")", file: file, line: line)
}

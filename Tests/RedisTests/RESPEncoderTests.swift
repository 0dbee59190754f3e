// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Redis
import XCTest

final class RESPEncoderTests: XCTestCase {
    func testCommandIsAnArrayOfBulkStrings() {
        XCTAssertEqual(String(decoding: RESPEncoder.command(["SET", "k", "v 1"]), as: UTF8.self), "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$3\r\nv 1\r\n")
    }

    func testBulkLengthCountsUTF8BytesNotCharacters() {
        XCTAssertEqual(String(decoding: RESPEncoder.command(["é"]), as: UTF8.self), "*1\r\n$2\r\né\r\n")
    }

    func testEveryValueKindEncodesToItsWireForm() {
        let value = RESPValue.array([.simpleString("OK"), .error("ERR no"), .integer(-7), .bulkString([0, 13, 10]), .null, .array([])])
        XCTAssertEqual(RESPEncoder.encode(value), Array("*6\r\n+OK\r\n-ERR no\r\n:-7\r\n$3\r\n\0\r\n\r\n$-1\r\n*0\r\n".utf8))
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP
import HTTPTestSupport

final class SSEEncoderTests: XCTestCase {
    private func wire(_ event: ServerSentEvent) -> String {
        String(decoding: SSEEncoder.encode(event), as: UTF8.self)
    }

    func testDataOnlyEventEndsWithBlankLine() {
        XCTAssertEqual(wire(ServerSentEvent(data: "tick 0")), "data: tick 0\n\n")
    }

    func testAllFieldsInOrderIdEventRetryData() {
        let event = ServerSentEvent(id: "7", event: "user", data: "{}", retry: 3000)
        XCTAssertEqual(wire(event), "id: 7\nevent: user\nretry: 3000\ndata: {}\n\n")
    }

    func testMultiLineDataIsSplitOnLF() {
        XCTAssertEqual(wire(ServerSentEvent(data: "a\nb")), "data: a\ndata: b\n\n")
    }

    func testMultiLineDataIsSplitOnCRLF() {
        XCTAssertEqual(wire(ServerSentEvent(data: "a\r\nb")), "data: a\ndata: b\n\n")
    }

    func testMultiLineDataIsSplitOnLoneCR() {
        XCTAssertEqual(wire(ServerSentEvent(data: "a\rb")), "data: a\ndata: b\n\n")
    }

    func testTrailingNewlineInDataBecomesEmptyDataLine() {
        XCTAssertEqual(wire(ServerSentEvent(data: "a\n")), "data: a\ndata: \n\n")
    }

    func testEmptyDataIsStillSent() {
        XCTAssertEqual(wire(ServerSentEvent(data: "")), "data: \n\n")
    }

    func testLeadingSpaceOfDataSurvivesTheParsersSpaceStripping() {
        XCTAssertEqual(wire(ServerSentEvent(data: " x")), "data:  x\n\n")
    }

    func testLineBreaksCannotInjectFieldsThroughId() {
        XCTAssertEqual(wire(ServerSentEvent(id: "1\nevent: evil\r\ndata: x", data: "ok")), "id: 1event: evildata: x\ndata: ok\n\n")
    }

    func testLineBreaksAndNULCannotInjectFieldsThroughEventName() {
        XCTAssertEqual(wire(ServerSentEvent(event: "a\rb\0c", data: "ok")), "event: abc\ndata: ok\n\n")
    }

    func testCommentOnlyMessageIsAHeartbeat() {
        XCTAssertEqual(wire(.comment("heartbeat")), ": heartbeat\n\n")
    }

    func testMultiLineCommentKeepsEveryLineAComment() {
        XCTAssertEqual(wire(.comment("a\nb")), ": a\n: b\n\n")
    }

    func testUnicodeDataIsUTF8() {
        XCTAssertEqual(SSEEncoder.encode(ServerSentEvent(data: "é")), Array("data: é\n\n".utf8))
    }
}

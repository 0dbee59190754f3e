// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import StreamServiceConcurrency
import Logging
import NetCore
import XCTest
@testable import Server
import HTTP
import HTTPTestSupport

final class LoggingTests: XCTestCase {
    func testTextLineHasTimeLevelLabelMessageAndSortedMetadata() {
        let line = LogLineFormatter(format: .text).line(
            time: "T", level: .info, label: "http", message: "hello", metadata: ["b": "2", "a": "x y"])
        XCTAssertEqual(line, "T info http: hello a=\"x y\" b=2")
    }

    func testJSONLineKeepsNumbersAsNumbers() throws {
        let line = LogLineFormatter(format: .json).line(
            time: "T", level: .warning, label: "http", message: "m", metadata: ["status": .stringConvertible(200), "path": "/x"])
        XCTAssertEqual(line, #"{"time":"T","level":"warning","logger":"http","message":"m","path":"/x","status":200}"#)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(line.utf8)))
    }

    func testLineBreaksNeverSplitAnEventOverTwoLines() {
        for format in ServiceConfiguration.LogFormat.allCases {
            let line = LogLineFormatter(format: format).line(
                time: "T", level: .info, label: "l", message: "a\nb", metadata: ["k": "c\r\nd"])
            XCTAssertFalse(line.contains("\n") || line.contains("\r"), line)
        }
    }

    func testTextLineEscapesControlCharactersOfADecodedPath() {
        // What `curl 'http://HOST/users/a%1b%5b31mRED%07%00%c2%85'` decodes to: ESC [31m, BEL, NUL, NEL.
        let path = "/users/a\u{1B}[31mRED\u{07}\u{00}\u{85}"
        let line = LogLineFormatter(format: .text).line(
            time: "T", level: .info, label: "http", message: "GET \(path) 404", metadata: ["path": .string(path)])
        XCTAssertEqual(line, #"T info http: GET /users/a\u001b[31mRED\u0007\u0000\u0085 404 path=/users/a\u001b[31mRED\u0007\u0000\u0085"#)
    }

    func testNoFormatPrintsAControlCharacterOrALineSeparatorRaw() {
        let hostile = "a\u{7F}b\u{9B}c\u{2028}d\u{2029}e\u{1B}f\u{85}g\r\n\t"
        for format in ServiceConfiguration.LogFormat.allCases {
            let line = LogLineFormatter(format: format).line(
                time: "T", level: .info, label: "l", message: hostile, metadata: ["k": .string(hostile), "q": .string("x \(hostile)")])
            let raw = line.unicodeScalars.filter { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}" }
            XCTAssertEqual(raw.map(\.value), [], "\(format): \(line)")
        }
    }

    func testJSONLineStillDecodesToTheOriginalText() throws {
        let hostile = "a\u{7F}b\u{85}c\u{2028}\u{1B}\"\\"
        let line = LogLineFormatter(format: .json).line(time: "T", level: .info, label: "l", message: hostile, metadata: ["k": .string(hostile)])
        let fields = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(fields["message"] as? String, hostile)
        XCTAssertEqual(fields["k"] as? String, hostile)
    }

    func testTextLineEscapesABackslashSoAnEscapeCannotBeForged() {
        let line = LogLineFormatter(format: .text).line(time: "T", level: .info, label: "l", message: #"a\u001b"#, metadata: ["k": .string(#"b\n"#)])
        XCTAssertEqual(line, #"T info l: a\\u001b k=b\\n"#)
    }

    func testHandlerWritesOneLinePerEventAtOrAboveItsLevel() {
        let capture = CapturedOutput()
        var logger = Logger(label: "test") { StdoutLogHandler(label: $0, level: .info, format: .text, writer: capture.writer) }
        logger[metadataKey: "instance"] = "a"
        logger.debug("hidden")
        logger.info("shown", metadata: ["n": "1"])
        logger.error("also shown")
        let lines = capture.lines()
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].hasSuffix(" info test: shown instance=a n=1"), lines[0])
        XCTAssertTrue(lines[1].contains(" error test: also shown"), lines[1])
    }

    func testTimestampIsRFC3339UTCWithMilliseconds() {
        let pattern = #/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/#
        XCTAssertNotNil(RFC3339Timestamp.now().wholeMatch(of: pattern))
    }

    func testAccessLogLineCarriesEveryRequestField() throws {
        let capture = CapturedOutput()
        let logger = Logger(label: "access") { StdoutLogHandler(label: $0, level: .info, format: .json, writer: capture.writer) }
        AccessLog(logger: logger).record(CompletedRequest(
            method: .get, path: "/users/ada", target: "/users/ada?x=1", routePattern: "/users/{login}", status: 200,
            duration: .microseconds(1500), bodyBytes: 42, requestID: "r-1", remoteAddress: "127.0.0.1:5000",
            userAgent: nil, completed: true))
        let line = try XCTUnwrap(capture.lines().first)
        let fields = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(fields["method"] as? String, "GET")
        XCTAssertEqual(fields["path"] as? String, "/users/ada")
        XCTAssertEqual(fields["route"] as? String, "/users/{login}")
        XCTAssertEqual(fields["status"] as? Int, 200)
        XCTAssertEqual(fields["bytes"] as? Int, 42)
        XCTAssertEqual(fields["duration_ms"] as? Double, 1.5)
        XCTAssertEqual(fields["request_id"] as? String, "r-1")
        XCTAssertEqual(fields["remote"] as? String, "127.0.0.1:5000")
        XCTAssertNil(fields["aborted"])
    }

    func testWriterCoalescesLinesButKeepsTheirOrder() {
        let capture = CapturedOutput()
        for index in 0..<500 { capture.writer.write("line \(index)") }
        XCTAssertEqual(capture.lines(), (0..<500).map { "line \($0)" })
    }
}

/// Everything a `LineWriter` outputs, kept in memory.
final class CapturedOutput: Sendable {
    private final class Bytes: Sendable {
        let value = Locked<[UInt8]>([])
    }

    private let bytes = Bytes()
    let writer: LineWriter

    init() {
        let bytes = self.bytes
        writer = LineWriter { batch in bytes.value.withLock { $0 += batch } }
    }

    /// The lines written so far (after flushing the writer).
    func lines() -> [String] {
        writer.flush()
        let text = String(decoding: bytes.value.withLock { $0 }, as: UTF8.self)
        return text.split(separator: "\n").map(String.init)
    }
}

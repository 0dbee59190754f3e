// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

/// The HPACK decoder's `checkedFields` (the fast path: fields from a table, or checked once when
/// decoded, are not checked again by the head) against the heads' slow twin, which checks every field.
final class HTTP2FieldChecksTests: XCTestCase {
    /// Blocks of one connection, in order: valid and invalid fields, each sent new (a literal, most
    /// inserted into the table) and again (an index into the table), names from the static table.
    private static let responseBlocks: [[(name: String, value: String)]] = [
        [(":status", "200"), ("content-type", "application/json"), ("x-ratelimit-remaining", "4999"), ("etag", "\"a\"")],
        [(":status", "200"), ("content-type", "application/json"), ("x-ratelimit-remaining", "4998"), ("etag", "\"b\"")],
        [(":status", "200"), ("x-bad", " leading space")],
        [(":status", "200"), ("x-bad", " leading space")],
        [(":status", "200"), ("X-Upper", "v")],
        [(":status", "200"), ("X-Upper", "v")],
        [(":status", "304"), ("cache-control", "trailing\t"), ("vary", "accept")],
        [(":status", "304"), ("cache-control", "trailing\t"), ("vary", "accept")],
        [(":status", "200"), ("connection", "close")],
        [(":status", "200"), ("content-length", "12"), ("content-encoding", "gzip"), ("server", "x")],
        [(":status", "200"), ("content-length", "12"), ("content-encoding", "gzip"), ("server", "x")],
        [(":status", "200"), ("x-nul", "a\u{0}b")],
        [(":path", "/"), (":status", "200")],
    ]

    private func outcome(_ block: [(name: String, value: String)], checked: UInt64) -> String {
        do {
            let head = try HTTP2ResponseHead(validating: block, checked: checked)
            return "\(head.status) \(fieldPairs(Array(head.fields))) \(head.contentLength ?? -1) \(head.gzipCoded)"
        } catch {
            return "malformed: \(error.reason)"
        }
    }

    private func requestOutcome(_ block: [(name: String, value: String)], checked: UInt64) -> String {
        do {
            let head = try HTTP2RequestHead(validating: block, checked: checked)
            return "\(head.method) \(head.path) \(fieldPairs(Array(head.fields)))"
        } catch {
            return "malformed: \(error.reason)"
        }
    }

    func testEveryStaticTableFieldPassesTheChecks() {
        for entry in HPACKStaticTable.entries {
            XCTAssertTrue(HTTP2FieldRules.isValidName(entry.name) && HTTP2FieldRules.isValidValue(entry.value), "\(entry)")
        }
    }

    func testDecoderMarksExactlyTheFieldsThatPassTheChecks() throws {
        var encoder = HPACKEncoder()
        var decoder = HPACKDecoder()
        var marked = 0
        for fields in Self.responseBlocks {
            var block: [UInt8] = []
            encoder.encode(fields, into: &block)
            let decoded = try decoder.decode(block)
            for (index, field) in decoded.fields.enumerated() {
                let valid = HTTP2FieldRules.isValidName(field.name) && HTTP2FieldRules.isValidValue(field.value)
                XCTAssertEqual(HTTP2FieldRules.isChecked(index, in: decoded.checkedFields), valid, "\(field)")
                if valid { marked += 1 }
            }
        }
        XCTAssertGreaterThan(marked, 20)
    }

    /// The blocks encoded and decoded on one connection, in order: `outcome` of each with the
    /// decoder's marks and with none (every field checked).
    private func assertMarksChangeNoOutcome(_ blocks: [[(name: String, value: String)]],
                                            _ outcome: ([(name: String, value: String)], UInt64) -> String) throws {
        var encoder = HPACKEncoder()
        var decoder = HPACKDecoder()
        for fields in blocks {
            var block: [UInt8] = []
            encoder.encode(fields, into: &block)
            let decoded = try decoder.decode(block)
            XCTAssertEqual(outcome(decoded.fields, decoded.checkedFields), outcome(decoded.fields, 0), "\(fields)")
        }
    }

    func testResponseHeadGivesTheSameAnswerWithTheDecodersMarksAsCheckingEveryField() throws {
        try assertMarksChangeNoOutcome(Self.responseBlocks, outcome)
    }

    func testRequestHeadGivesTheSameAnswerWithTheDecodersMarksAsCheckingEveryField() throws {
        try assertMarksChangeNoOutcome([
            [(":method", "GET"), (":scheme", "https"), (":authority", "a.example"), (":path", "/users"), ("accept", "*/*")],
            [(":method", "GET"), (":scheme", "https"), (":authority", "a.example"), (":path", "/users"), ("accept", "*/*")],
            [(":method", "GET"), (":scheme", "https"), (":path", "/"), ("x-bad", "v\r")],
            [(":method", "GET"), (":scheme", "https"), (":path", "/"), ("x-bad", "v\r")],
            [(":method", "GET"), (":scheme", "https"), (":path", "/"), ("Accept", "*/*")],
            [(":method", "GET"), (":scheme", "https"), (":path", "/"), ("cookie", "a=1"), ("cookie", "b=2")],
        ], requestOutcome)
    }

    func testATableEntryThatFailedItsChecksIsCheckedAgainWhenNamed() throws {
        var encoder = HPACKEncoder()
        var decoder = HPACKDecoder()
        let fields: [(name: String, value: String)] = [(":status", "200"), ("x-bad", " leading space")]
        for _ in 0..<2 {
            var block: [UInt8] = []
            encoder.encode(fields, into: &block)
            let decoded = try decoder.decode(block)
            XCTAssertFalse(HTTP2FieldRules.isChecked(1, in: decoded.checkedFields))
            XCTAssertThrowsError(try HTTP2ResponseHead(validating: decoded.fields, checked: decoded.checkedFields))
        }
        XCTAssertEqual(decoder.dynamicTableCount, 1, "the second block named the entry the first inserted")
    }
}

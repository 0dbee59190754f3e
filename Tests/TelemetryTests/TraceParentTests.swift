// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

@testable import Telemetry
import StreamServiceText
import XCTest

/// W3C Trace Context `traceparent` parsing: strict, and never a crash on what a client sends.
final class TraceParentTests: XCTestCase {
    private let valid = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

    func testAValidHeaderGivesTheIdsAndTheSampledFlag() throws {
        let context = try XCTUnwrap(TraceParent.parse(valid))
        XCTAssertEqual(context.traceID.description, "0af7651916cd43dd8448eb211c80319c")
        XCTAssertEqual(context.spanID.description, "b7ad6b7169203331")
        XCTAssertTrue(context.isSampled)
        XCTAssertTrue(context.isRemote)
        XCTAssertEqual(context.traceparent, valid)
    }

    func testFlagsWithoutTheSampledBitAreNotSampled() throws {
        XCTAssertFalse(try XCTUnwrap(TraceParent.parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00")).isSampled)
        XCTAssertFalse(try XCTUnwrap(TraceParent.parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-02")).isSampled)
        XCTAssertTrue(try XCTUnwrap(TraceParent.parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-03")).isSampled)
    }

    func testMalformedHeadersAreIgnored() {
        let malformed = [
            "",
            "garbage",
            "00-0AF7651916CD43DD8448EB211C80319C-B7AD6B7169203331-01",  // uppercase hex
            "00-00000000000000000000000000000000-b7ad6b7169203331-01",  // all-zero trace id
            "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",  // all-zero parent id
            "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",  // version ff
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra",  // version 00 with more
            "00-0af7651916cd43dd8448eb211c80319-b7ad6b7169203331-01",  // short trace id
            "00_0af7651916cd43dd8448eb211c80319c_b7ad6b7169203331_01",  // wrong separators
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0g",  // flags not hex
            "0-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b716920333-01 ",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\u{0}",
            "00-ééé7651916cd43dd8448eb211c8031-b7ad6b7169203331-01",
        ]
        for header in malformed {
            XCTAssertNil(TraceParent.parse(header), header)
        }
    }

    func testALaterVersionIsReadByItsFirstFields() throws {
        let context = try XCTUnwrap(TraceParent.parse("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-what-comes-next"))
        XCTAssertEqual(context.spanID.description, "b7ad6b7169203331")
        XCTAssertNil(TraceParent.parse("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01x"))
    }

    func testTraceStateKeepsValidListsAndDropsInvalidOnes() {
        XCTAssertEqual(TraceState.validate("congo=t61rcWkgMzE, rojo=00f067aa0ba902b7"), "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7")
        XCTAssertEqual(TraceState.validate("tenant@vendor=x,,a=1"), "tenant@vendor=x,a=1")
        XCTAssertNil(TraceState.validate("Upper=1"))
        XCTAssertNil(TraceState.validate("a=1,a=2"))
        XCTAssertNil(TraceState.validate("novalue"))
        XCTAssertNil(TraceState.validate("a=b=c"))
        XCTAssertNil(TraceState.validate((0...32).map { "k\($0)=v" }.joined(separator: ",")))
        XCTAssertNil(TraceState.validate(""))
    }

    func testRandomIdsAreValidAndDistinct() {
        let traces = Set((0..<1000).map { _ in TraceID.random() })
        let spans = Set((0..<1000).map { _ in SpanID.random() })
        XCTAssertEqual(traces.count, 1000)
        XCTAssertEqual(spans.count, 1000)
        XCTAssertTrue(traces.allSatisfy { $0.isValid && TraceID(hex: $0.description) == $0 })
        XCTAssertTrue(spans.allSatisfy { $0.isValid && SpanID(hex: $0.description) == $0 })
    }

    func testHexDigitsWrittenEightAtATimeAreTheDigitByDigitOnes() {
        var values: [UInt64] = [0, 1, 9, 10, 15, 16, 0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210, .max, 0x9A9A_9A9A_A9A9_A9A9]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<1000 { values.append(random.next()) }
        for value in values {
            var fast = [UInt8](repeating: 0, count: 18), slow = fast
            fast.withUnsafeMutableBufferPointer { Hex.write(value, into: $0, at: 1) }
            slow.withUnsafeMutableBufferPointer { ASCIIDigits.writeHexadecimal(value, count: 16, to: $0.baseAddress! + 1) }
            XCTAssertEqual(fast, slow, String(value, radix: 16))
        }
    }
}

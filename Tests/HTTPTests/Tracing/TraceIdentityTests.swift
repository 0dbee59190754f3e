// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import XCTest

/// `TraceIdentity(traceparent:)` reads W3C Trace Context's fixed layout, and refuses what the
/// specification refuses.
final class TraceIdentityTests: XCTestCase {
    private let trace = "4bf92f3577b34da6a3ce929d0e0e4736"
    private let span = "00f067aa0ba902b7"

    func testAVersion00ValueGivesItsIdsAndSampledFlag() {
        XCTAssertEqual(TraceIdentity(traceparent: "00-\(trace)-\(span)-01"), TraceIdentity(traceID: trace, spanID: span, sampled: true))
        XCTAssertEqual(TraceIdentity(traceparent: "00-\(trace)-\(span)-00")?.sampled, false)
    }

    func testALaterVersionIsReadByItsFirstFields() {
        XCTAssertEqual(TraceIdentity(traceparent: "01-\(trace)-\(span)-01-what-comes-next")?.traceID, trace)
    }

    func testUpperCaseHexIsRefused() {
        XCTAssertNil(TraceIdentity(traceparent: "00-\(trace.uppercased())-\(span)-01"))
        XCTAssertNil(TraceIdentity(traceparent: "00-\(trace)-\(span)-0A"))
    }

    func testAllZeroIdsAndVersionFFAreRefused() {
        XCTAssertNil(TraceIdentity(traceparent: "00-\(String(repeating: "0", count: 32))-\(span)-01"))
        XCTAssertNil(TraceIdentity(traceparent: "00-\(trace)-\(String(repeating: "0", count: 16))-01"))
        XCTAssertNil(TraceIdentity(traceparent: "ff-\(trace)-\(span)-01"))
    }

    func testAWrongLayoutIsRefused() {
        XCTAssertNil(TraceIdentity(traceparent: "00-\(trace)-\(span)-01x"))
        XCTAssertNil(TraceIdentity(traceparent: "00-\(trace.dropLast())-\(span)-01"))
        XCTAssertNil(TraceIdentity(traceparent: ""))
        XCTAssertNil(TraceIdentity(traceparent: "00_\(trace)_\(span)_01"))
    }

    func testATraceParentsIdsWrittenAsWordsAreTheIdentitysValue() {
        let cases: [(UInt64, UInt64, UInt64, Bool)] = [
            (0x4bf9_2f35_77b3_4da6, 0xa3ce_929d_0e0e_4736, 0x00f0_67aa_0ba9_02b7, true), (0, 1, 1, false), (.max, .max, .max, true),
            (0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210, 0x0a0b_0c0d_0e0f_1011, false),
        ]
        for (high, low, span, sampled) in cases {
            let ids = TraceParentIDs(traceHigh: high, traceLow: low, spanID: span, sampled: sampled)
            XCTAssertEqual(ids.traceparent, TraceIdentity(traceHigh: high, traceLow: low, spanID: span, sampled: sampled).traceparent)
            XCTAssertEqual(ids.traceparent.utf8.count, TraceParentIDs.count)
        }
    }

    func testTheValueItWritesReadsBack() {
        let identity = TraceIdentity(traceID: trace, spanID: span, sampled: false)
        XCTAssertEqual(TraceIdentity(traceparent: identity.traceparent), identity)
    }
}

/// A tracer's identity kept as numbers reads as the hex it names.
final class TraceIdentityNumbersTests: XCTestCase {
    func testAnIdentityOfNumbersReadsAsItsHexAndEqualsItsTextTwin() {
        let numbers = TraceIdentity(traceHigh: 0x4bf9_2f35_77b3_4da6, traceLow: 0x0a3c_e929_d0e0_e473, spanID: 0x00f0_67aa_0ba9_02b7, sampled: true)
        let text = TraceIdentity(traceID: "4bf92f3577b34da60a3ce929d0e0e473", spanID: "00f067aa0ba902b7", sampled: true)
        XCTAssertEqual(numbers.traceID, text.traceID)
        XCTAssertEqual(numbers.spanID, text.spanID)
        XCTAssertEqual(numbers, text)
        XCTAssertEqual(numbers.traceparent, "00-4bf92f3577b34da60a3ce929d0e0e473-00f067aa0ba902b7-01")
        XCTAssertNotEqual(numbers, TraceIdentity(traceHigh: 0x4bf9_2f35_77b3_4da6, traceLow: 0x0a3c_e929_d0e0_e473, spanID: 0x00f0_67aa_0ba9_02b7, sampled: false))
    }

    func testSettingAnIdKeepsTheOther() {
        var identity = TraceIdentity(traceHigh: 1, traceLow: 2, spanID: 3, sampled: true)
        identity.spanID = "00000000000000ff"
        XCTAssertEqual(identity.traceID, "00000000000000010000000000000002")
        XCTAssertEqual(identity.spanID, "00000000000000ff")
    }
}

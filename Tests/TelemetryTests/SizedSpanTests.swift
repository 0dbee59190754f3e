// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import XCTest
@testable import Telemetry

/// `SizedSpan`'s fast paths against their slow twins.
final class SizedSpanTests: XCTestCase {
    /// Key and value lengths around the one-byte limit (`oneByteLengthsLimit`) and far past it.
    private static let lengths = [0, 1, 8, 60, 113, 114, 120, 121, 122, 127, 128, 200, 16_500]

    func testAnOwnStringWithOneByteLengthsIsCountedAsItsVarintTwinCountsIt() {
        for keyLength in [0, 1, 8, 121, 122, 200] {
            for valueLength in Self.lengths {
                Self.withOwn(keyLength, valueLength) { own in
                    XCTAssertEqual(SizedSpan.stringEntrySize(own), SizedSpan.stringEntrySizeVarint(own), "\(keyLength) + \(valueLength)")
                }
            }
        }
    }

    func testAnOwnStringWithOneByteLengthsIsWrittenAsItsVarintTwinWritesIt() {
        for keyLength in [0, 1, 8, 121, 122, 200] {
            for valueLength in Self.lengths {
                Self.withOwn(keyLength, valueLength) { own in
                    let room = 16 + keyLength + valueLength
                    var fast = [UInt8](repeating: 0xAA, count: room), slow = fast
                    let fastCount = fast.withUnsafeMutableBufferPointer { SizedSpan.stringEntry(own, at: $0.baseAddress!) }
                    let slowCount = slow.withUnsafeMutableBufferPointer { SizedSpan.stringEntryVarint(own, at: $0.baseAddress!) }
                    XCTAssertEqual(fastCount, slowCount, "\(keyLength) + \(valueLength)")
                    XCTAssertEqual(fastCount, SizedSpan.stringEntrySize(own), "\(keyLength) + \(valueLength)")
                    XCTAssertEqual(fast, slow, "\(keyLength) + \(valueLength)")
                }
            }
        }
    }

    func testSharedAttributesAreWrittenAsTheSpansOwnListWouldBe() {
        let context = SpanContext(traceID: TraceID(high: 1, low: 2), spanID: SpanID(3), isSampled: true)
        for list: SpanAttributeList in [[:], ["server.address": .string("127.0.0.1"), "server.port": .int64(8080), "ok": .bool(true)]] {
            var own = ProtobufWriter(), shared = ProtobufWriter()
            OTLPProtobufEncoding.writeSpan(
                &own, context: context, parentSpanID: nil, name: "GET", kind: .server, start: 1, end: 2, attributes: [:], list: list,
                events: [], links: [], status: nil)
            OTLPProtobufEncoding.writeSpan(
                &shared, context: context, parentSpanID: nil, name: "GET", kind: .server, start: 1, end: 2, attributes: [:], list: [:],
                events: [], links: [], status: nil, shared: OTLPProtobufEncoding.EncodedAttributes(list))
            XCTAssertEqual(shared.bytes, own.bytes)
        }
    }

    private static func withOwn(_ keyLength: Int, _ valueLength: Int, _ body: (UnsafePointer<SizedSpan.OwnString>) -> Void) {
        let key = [UInt8]((0..<keyLength).map { UInt8(truncatingIfNeeded: 0x61 + $0 % 26) })
        let value = [UInt8]((0..<valueLength).map { UInt8(truncatingIfNeeded: 0x30 + $0 % 10) })
        key.withUnsafeBufferPointer { key in
            value.withUnsafeBufferPointer { value in
                var own = SizedSpan.OwnString(key: key, value: value)
                withUnsafePointer(to: &own, body)
            }
        }
    }
}

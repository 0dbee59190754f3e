// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Tracing
import XCTest
@testable import Telemetry

/// The protobuf writer's one-go `KeyValue` (a scalar attribute, its lengths known up front)
/// against its slow twin, the nested writer that length-prefixes each message after writing it.
final class OTLPEncodingTests: XCTestCase {
    func testAScalarAttributeWrittenInOneGoIsByteForByteTheNestedWritersOne() {
        let long = String(repeating: "0123456789", count: 30)
        let values: [SpanAttribute] = [
            .string(""), .string("GET"), .string(long), .string("é ✓"), .int64(0), .int64(1), .int64(200), .int64(-1), .int64(.max), .int64(.min),
            .int32(-5), .int32(.max), .bool(true), .bool(false), .double(0), .double(-1.5), .double(.infinity),
        ]
        for key in ["", "http.response.status_code", long] {
            for value in values {
                var fast = ProtobufWriter()
                OTLPProtobufEncoding.attribute(&fast, 9, key, value)
                var nested = ProtobufWriter()
                OTLPProtobufEncoding.nestedAttribute(&nested, 9, key, value)
                XCTAssertEqual(fast.bytes, nested.bytes, "\(key.prefix(20)) = \(value)")
            }
        }
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Tracing
import XCTest

/// A `SpanAttributeList` keeps its values in its own form (`StoredValue`) and gives back the
/// `SpanAttribute`s that were set.
final class SpanAttributeListTests: XCTestCase {
    private static let attributes: [(String, SpanAttribute)] = [
        ("s", .string("GET")), ("i", .int64(-7)), ("b", .bool(true)), ("d", .double(0.5)), ("i32", .int32(3)),
        ("sa", .stringArray(["a", "b"])), ("ia", .int64Array([1, 2])), ("c", .stringConvertible(42)),
    ]

    func testEveryKindOfValueComesBackAsSet() {
        var list = SpanAttributeList()
        for (key, value) in Self.attributes { list.append(key, value) }
        XCTAssertEqual(list.entries.map(\.key), Self.attributes.map(\.0))
        for (key, value) in Self.attributes {
            XCTAssertEqual(list[key], value, key)
            XCTAssertEqual(SpanAttributeList.StoredValue(value).attribute, value, key)
        }
    }

    func testAValueAppendedInTheListsOwnFormIsTheAttributeAppended() {
        var stored = SpanAttributeList(), converted = SpanAttributeList()
        stored.append("s", stored: .string("GET"))
        stored.append("i", stored: .int64(8080))
        stored.append("b", stored: .bool(false))
        stored.append("d", stored: .double(1.5))
        converted.append("s", .string("GET"))
        converted.append("i", .int64(8080))
        converted.append("b", .bool(false))
        converted.append("d", .double(1.5))
        XCTAssertEqual(stored, converted)
        XCTAssertEqual(stored.attributes, converted.attributes)
    }

    func testSharedAttributesKeepWhatTheFirstAskerMadeOfThem() {
        final class Made: Sendable {
            let count: Int
            init(_ list: SpanAttributeList) { count = list.count }
        }
        final class Other: Sendable {
            init(_ list: SpanAttributeList) {}
        }
        let shared = SharedSpanAttributes(["server.address": .string("127.0.0.1"), "server.port": .int64(1)])
        let first = shared.memo(Made.init)
        XCTAssertEqual(first.count, 2)
        XCTAssertTrue(shared.memo(Made.init) === first)
        XCTAssertFalse(shared.memo(Other.init) === shared.memo(Other.init), "another type's is made anew")
        XCTAssertTrue(shared.memo(Made.init) === first)
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import XCTest
@testable import StreamServiceJSON

/// `JSONOutput` must give exactly `JSONEncoder`'s bytes (sorted keys, unescaped slashes).
final class JSONOutputTests: XCTestCase {
    /// Every control character, the two escapes, slashes, DEL, and multi-byte UTF-8.
    static let oddStrings: [String] = [
        "", "plain", "a\"quote\"", "back\\slash", "http://127.0.0.1:8080/u/1?v=4&s=40", "line\nfeed", "cr\rtab\t",
        "bell\u{07}backspace\u{08}formfeed\u{0C}vt\u{0B}", "nul\u{0}end", "esc\u{1B}[0m", "unit\u{1F}sep", "del\u{7F}",
        "é ü ß 日本語", "emoji 🧑‍💻 flag 🇫🇷", "line sep \u{2028} para sep \u{2029}", "bom \u{FEFF}", "combining e\u{301}",
        String((0..<0x80).map { Character(Unicode.Scalar(UInt8($0))) }),
    ]

    func testStringsAreEscapedAsJSONEncoderEscapesThem() throws {
        for text in Self.oddStrings {
            XCTAssertEqual(JSONOutput.encode(text), try ReferenceJSON.encode(text), text.debugDescription)
        }
    }

    /// Plain runs are scanned eight bytes at a time: an escape must be found at any offset of a
    /// word, and non-ASCII inside a word must be left as it is.
    func testEscapesAreFoundAtEveryOffsetOfALongString() throws {
        for special in ["\"", "\\", "\n", "\u{01}", "\u{1F}", "é", "🧑‍💻"] {
            for offset in 0...24 {
                let text = String(repeating: "a", count: offset) + special + String(repeating: "b", count: 24 - offset)
                XCTAssertEqual(JSONOutput.encode(text), try ReferenceJSON.encode(text), "\(special.debugDescription) at \(offset)")
            }
        }
    }

    func testWritingPastTheReservedCapacityKeepsEveryByte() throws {
        let long = String(repeating: "abcdefgh", count: 200) + "\n" + String(repeating: "é", count: 100)
        XCTAssertEqual(JSONOutput.encode([long, long], reservingCapacity: 1), try ReferenceJSON.encode([long, long]))
    }

    /// The output is a value: a copy goes on from what was written, on its own.
    func testACopyOfAnOutputIsWrittenOnItsOwn() {
        var first = JSONOutput(reservingCapacity: 1)
        first.string("a")
        var second = first
        second.string("b")
        first.int(1)
        XCTAssertEqual(first.bytes, Array(#""a"1"#.utf8))
        XCTAssertEqual(second.bytes, Array(#""a""b""#.utf8))
    }

    func testIntegersAreWrittenAsJSONEncoderWritesThem() throws {
        for value in [0, 1, -1, 9, 10, 99, 100, 1234567890, Int.max, Int.min, -42] {
            XCTAssertEqual(JSONOutput.encode(value), try ReferenceJSON.encode(value), String(value))
        }
    }

    func testBooleansNullsAndArraysAreWrittenAsJSONEncoderWritesThem() throws {
        XCTAssertEqual(JSONOutput.encode(true), try ReferenceJSON.encode(true))
        XCTAssertEqual(JSONOutput.encode(false), try ReferenceJSON.encode(false))
        XCTAssertEqual(JSONOutput.encode([String?.none, "x"]), try ReferenceJSON.encode([String?.none, "x"]))
        XCTAssertEqual(JSONOutput.encode([[1, 2], [], [3]]), try ReferenceJSON.encode([[1, 2], [], [3]]))
        XCTAssertEqual(JSONOutput.encode([Int]()), try ReferenceJSON.encode([Int]()))
    }

    struct Nested: Encodable, JSONWritable {
        let name: String
        let inner: Inner?
        let tags: [String]

        struct Inner: Encodable, JSONWritable {
            let a: Int
            let b: Bool?

            func writeJSON(to json: inout JSONOutput) {
                json.object { json in
                    json.field("a", a)
                    json.field("b", ifPresent: b)
                }
            }
        }

        func writeJSON(to json: inout JSONOutput) {
            json.object { json in
                json.field("inner", ifPresent: inner)
                json.field("name", name)
                json.field("tags", tags)
            }
        }
    }

    func testNestedObjectsPlaceTheirCommasAsJSONEncoderDoes() throws {
        let values = [
            Nested(name: "x/y", inner: .init(a: 1, b: nil), tags: []),
            Nested(name: "", inner: nil, tags: ["a", "b\n"]),
            Nested(name: "z", inner: .init(a: -3, b: true), tags: ["only"]),
        ]
        XCTAssertEqual(JSONOutput.encode(values), try ReferenceJSON.encode(values))
    }
}

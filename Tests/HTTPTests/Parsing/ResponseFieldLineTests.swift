// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamsTesting
import XCTest
@testable import HTTP

/// The response parser's one-pass field line reader (`plainFieldLine`) against its slow twin
/// (`checkedFieldLine`: the line's end by `memchr`, then `HTTPSyntax.field`): wherever the fast one
/// answers, the same name, value and end; every line it leaves goes to the twin, which accepts or
/// refuses it as before.
final class ResponseFieldLineTests: XCTestCase {
    /// Every line of `block` read both ways, as `parseHead` walks them: the answers, in order, up
    /// to the first refused line (nil).
    private func readings(_ block: [UInt8]) -> (fast: [HTTPResponseParser.FieldLine?], slow: [HTTPResponseParser.FieldLine?], plain: Int) {
        block.withUnsafeBytes { lines in
            var fast: [HTTPResponseParser.FieldLine?] = [], slow: [HTTPResponseParser.FieldLine?] = []
            var plain = 0
            var start = 0
            while start < lines.count {
                if let line = HTTPResponseParser.plainFieldLine(in: lines, from: start) {
                    plain += 1
                    // Where the fast reader answers, the twin must give the same answer.
                    XCTAssertEqual(HTTPResponseParser.checkedFieldLine(in: lines, from: start), line, "at \(start) of \(block)")
                }
                let quick = HTTPResponseParser.fieldLine(in: lines, from: start)
                let checked = HTTPResponseParser.checkedFieldLine(in: lines, from: start)
                fast.append(quick)
                slow.append(checked)
                guard let checked else { break }
                start = checked.end + 2
            }
            return (fast, slow, plain)
        }
    }

    private func assertAgree(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        assertAgree(Array(text.utf8), file: file, line: line)
    }

    private func assertAgree(_ block: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        let (fast, slow, _) = readings(block)
        XCTAssertEqual(fast, slow, "\(String(decoding: block, as: UTF8.self).debugDescription)", file: file, line: line)
    }

    func testPlainLinesAreReadInOnePassWithTheTwinsRanges() {
        let block = Array("Date: Thu, 03 Dec 2026 04:05:53 GMT\r\nContent-Length: 164\r\nETag: \"8a6b743e58827a26e35f99eb16d3585a\"\r\nX-Request-ID: req-2".utf8)
        let (fast, slow, plain) = readings(block)
        XCTAssertEqual(fast, slow)
        XCTAssertEqual(plain, 4)
        XCTAssertEqual(fast.count, 4)
        XCTAssertEqual(fast[1], HTTPResponseParser.FieldLine(name: 37..<51, value: 53..<56, end: 56))
    }

    func testBlanksAroundAValueAreTrimmedAsTheTwinTrimsThem() {
        for text in ["A:  b  \r\nC:\t\td \t\r\nE:   \r\nF:", "A: b \t \r\nB: c", "X:\t", "X: \u{7F}", "X: a\tb\r\nY: c"] {
            assertAgree(text)
        }
    }

    func testMalformedLinesAreRefusedAsTheTwinRefusesThem() {
        let cases = [
            "A: b\r\n continued", // obs-fold
            "A: b\r\n\tcontinued",
            "A: b\nB: c", // bare LF
            "A: b\rB: c", // bare CR
            "A: b\r", // a CR at the end
            "A b: c", "A\u{1}: b", ": no name", "no colon", "A: b\u{0}c", "A: b\u{1F}c", "A: b\u{7F}", "(A): b", "A@: b",
            "A: b\r\n\r\nC: d", // an empty line between fields
            "\r\nA: b", "\nA: b", "A:\r\n", "A:b:c\r\nD:", "A: caf\u{E9}",
        ]
        for text in cases { assertAgree(text) }
        assertAgree([65, 58, 32, 0xFF, 0x80, 13, 10, 66, 58, 0xC3, 0xA9])
    }

    func testAHugeLineIsReadAsTheTwinReadsIt() {
        let value = String(repeating: "v", count: 70_000)
        assertAgree("Big: \(value)\r\nA: b")
        assertAgree("Big: \(value)\u{1}")
        assertAgree("\(String(repeating: "n", count: 70_000)): v")
    }

    func testTheWordWideNameCheckFlagsLettersDigitsAndDashAlone() {
        let filler = Array("aZ-09xYq".utf8)
        for byte in UInt8.min...UInt8.max {
            let expected = (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) || byte == 45
            for offset in 0..<8 {
                var bytes = filler
                bytes[offset] = byte
                let word = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
                let flags = HTTPResponseParser.letterDigitOrDash(word)
                for at in 0..<8 {
                    let flagged = (flags >> (UInt64(at) * 8 + 7)) & 1 == 1
                    XCTAssertEqual(flagged, at == offset ? expected : true, "byte \(byte) at \(offset), flag \(at)")
                }
            }
        }
    }

    func testEveryByteAtEveryPlaceOfANameOrValueIsRefusedOrAcceptedAsByTheTwin() {
        for byte in UInt8.min...UInt8.max {
            for offset in 0..<18 {
                var value = Array(repeating: UInt8(ascii: "x"), count: 18)
                value[offset] = byte
                assertAgree(Array("Name: ".utf8) + value + Array("\r\nNext: y".utf8))
                var name = Array("Field-Name-Of-18-B".utf8)
                name[offset] = byte
                assertAgree(name + Array(": v\r\nNext: y".utf8))
            }
        }
    }

    func testRandomBlocksOfHeadBytesGetTheSameAnswersFromBothReaders() {
        var random = SeededRandom(seed: 3803)
        let alphabet: [UInt8] = Array("aZ09-_:: \t\r\n\r\n\"(,;".utf8) + [0, 1, 0x1F, 0x7F, 0x80, 0xE9, 0xFF]
        var plain = 0
        for _ in 0..<20_000 {
            var block: [UInt8] = []
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                // Mostly well-formed lines, so that the fast reader answers often.
                if Bool.random(using: &random) {
                    block += Array("X-\(Int.random(in: 0...99, using: &random)): v\(Int.random(in: 0...9999, using: &random))\r\n".utf8)
                } else {
                    block.append(alphabet.randomElement(using: &random)!)
                }
            }
            let (fast, slow, count) = readings(block)
            XCTAssertEqual(fast, slow, "\(block)")
            plain += count
        }
        XCTAssertGreaterThan(plain, 10_000, "the fast reader answered too rarely to be compared")
    }

    func testAHeadWithEveryKindOfLineParsesToTheSameResponseWhole() throws {
        var parser = HTTPResponseParser()
        let wire = Array("HTTP/1.1 200 OK\r\nA:\t x \t\r\nContent-Length: 2\r\nB: caf\u{E9}\r\nc: d\r\n\r\nok".utf8)
        guard case .complete(let response, _) = try parser.feed(wire) else { return XCTFail("incomplete") }
        XCTAssertEqual(response.headers, ["A": "x", "Content-Length": "2", "B": "caf\u{E9}", "c": "d"])
    }
}

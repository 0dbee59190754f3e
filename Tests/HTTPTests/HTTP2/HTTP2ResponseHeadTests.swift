// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamsTesting
import XCTest
@testable import HTTP

/// A response's header block: the rules of RFC 9113 §8.2.1 byte by byte, and what the validating
/// walk reads for the client's answer (the content coding, the rate-limit fields).
final class HTTP2ResponseHeadTests: XCTestCase {
    /// The head of `:status: 200` and `fields`, read by both paths, which must agree.
    private func head(_ fields: [(name: String, value: String)], file: StaticString = #filePath, line: UInt = #line) throws -> HTTP2ResponseHead {
        try agreedHead([(":status", "200")] + fields, file: file, line: line)
    }

    /// The slow twin's head of `block`, after checking that the bytes' head (the fast path, with no
    /// field marked and with the decoder's marks) says the same, or refuses it for the same reason.
    private func agreedHead(_ block: [(name: String, value: String)], file: StaticString = #filePath, line: UInt = #line) throws -> HTTP2ResponseHead {
        let slow = Result { try HTTP2ResponseHead(validating: block) }
        var encoded: [UInt8] = []
        var encoder = HPACKEncoder()
        encoder.encode(block, into: &encoded)
        var decoder = HPACKDecoder()
        let marked = try encoded.withUnsafeBufferPointer { try decoder.decodeBytes($0) }
        for bytes in [HPACKFieldBytes(listing: block), marked] {
            let fast = Result { try HTTP2ResponseHead(validatingBytes: bytes) }
            switch (slow, fast) {
            case (.success(let slow), .success(let fast)):
                XCTAssertEqual(fast.status, slow.status, file: file, line: line)
                XCTAssertEqual(fast.received, slow.received, file: file, line: line)
                XCTAssertEqual(fast.contentLength, slow.contentLength, file: file, line: line)
                XCTAssertEqual(fast.gzipCoded, slow.gzipCoded, file: file, line: line)
                XCTAssertEqual(fast.rateLimit, slow.rateLimit, file: file, line: line)
            case (.failure(let slow), .failure(let fast)):
                XCTAssertEqual((fast as? HTTP2MalformedMessage)?.reason, (slow as? HTTP2MalformedMessage)?.reason, file: file, line: line)
            default:
                XCTFail("one head refused, the other not: \(slow) \(fast)", file: file, line: line)
            }
        }
        return try slow.get()
    }

    /// Statuses, pseudo-headers and lengths the bytes' reading leaves to the slow twin, or reads itself.
    func testTheHeadReadFromBytesAgreesWithTheStringHead() {
        let blocks: [[(name: String, value: String)]] = [
            [(":status", "200")], [(":status", "099")], [(":status", "100")], [(":status", "101")], [(":status", "999")],
            [(":status", "1000")], [(":status", "+20")], [(":status", "20")], [(":status", "abc")], [(":STATUS", "200")],
            [], [("etag", "x")], [("etag", "x"), (":status", "200")], [(":status", "200"), (":status", "200")],
            [(":status", "200"), (":path", "/")], [(":status", "200"), ("etag", "x"), (":status", "204")],
            [(":status", "304"), ("content-length", "5")], [(":status", "200"), ("content-length", "+5")],
            [(":status", "200"), ("content-length", "05")], [(":status", "200"), ("content-length", "-1")],
            [(":status", "200"), ("content-length", "5"), ("content-length", "5")],
            [(":status", "200"), ("content-length", "5"), ("content-length", "6")],
            [(":status", "200"), ("content-length", "99999999999999999999")], [(":status", "200"), ("content-length", "")],
            [(":status", "200"), ("Content-Type", "x")], [(":status", "200"), ("transfer-encoding", "chunked")],
            [(":status", "200"), ("content-encoding", "Gzip"), ("content-encoding", "br")],
            [(":status", "200"), ("x-ratelimit-remaining", "12"), ("x-ratelimit-limit", "60"), ("x-ratelimit-reset", "9")],
            [(":status", "200"), ("x-ratelimit-remaining", "1x")], [(":status", "200"), ("x-field", "caf\u{e9}")],
        ]
        for block in blocks { _ = try? agreedHead(block) }
    }

    /// The exact, eight-bytes-at-a-time name comparison (the fast path) against
    /// `HTTPSyntax.sameToken` (its slow twin) over lowercase names: each name the head looks for,
    /// itself, changed at each byte, cut short and made longer.
    func testNamesComparedExactlyAgreeWithSameTokenForLowercaseNames() {
        let wanted: [StaticString] = [":status", "upgrade", "connection", "keep-alive", "content-length", "proxy-connection",
                                      "content-encoding", "transfer-encoding", "x-ratelimit-limit", "x-ratelimit-reset", "x-ratelimit-remaining"]
        for expected in wanted {
            let bytes = Array(UnsafeBufferPointer(start: expected.utf8Start, count: expected.utf8CodeUnitCount))
            var names = [bytes, Array(bytes.dropLast()), bytes + [0x61], []]
            for index in bytes.indices { var changed = bytes; changed[index] = changed[index] == 0x61 ? 0x62 : 0x61; names.append(changed) }
            for name in names {
                name.withUnsafeBytes { name in
                    XCTAssertEqual(HTTP2ResponseHead.isName(name, expected), HTTPSyntax.sameToken(name, expected), "\(expected)")
                }
            }
        }
    }

    private func accepted(_ fields: [(name: String, value: String)]) -> Bool {
        (try? head(fields)) != nil
    }

    /// RFC 9110 §5.6.2's tchar, written out: the rule the byte-wise check must follow.
    private static let tokenCharacters = Set(Array("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8))

    /// The byte-wise reading of a status or length (the fast path) against `Int(_:)`, its slow twin.
    func testIntegersAreReadAsIntReadsThem() {
        var values = ["0", "7", "200", "0042", "123456789012345678", "1234567890123456789", "9223372036854775807",
                      "9223372036854775808", "", "+5", "-1", " 5", "5 ", "1e3", "٣", "0x10", "12a"]
        var random = SeededRandom(seed: 9113)
        for _ in 0..<2_000 {
            let count = Int.random(in: 1...20, using: &random)
            values.append(String(decoding: (0..<count).map { _ in UInt8.random(in: 40...60, using: &random) }, as: UTF8.self))
        }
        for value in values { XCTAssertEqual(HTTP2ResponseHead.integer(value), Int(value), value) }
    }

    func testEveryNameByteIsJudgedByTheRFCsRule() {
        for byte in 0...255 {
            let name = String(decoding: [UInt8(ascii: "a"), UInt8(byte), UInt8(ascii: "z")], as: UTF8.self)
            let lowercaseToken = Self.tokenCharacters.contains(UInt8(byte)) && !(65...90).contains(byte)
            XCTAssertEqual(accepted([(name, "v")]), lowercaseToken, "byte \(byte)")
        }
    }

    func testEveryValueByteIsJudgedByTheRFCsRule() {
        for byte in 0...255 {
            let value = String(decoding: [UInt8(ascii: "a"), UInt8(byte), UInt8(ascii: "z")], as: UTF8.self)
            XCTAssertEqual(accepted([("x-field", value)]), ![0x00, 0x0A, 0x0D].contains(byte), "byte \(byte)")
        }
    }

    /// Values longer than a word: each refused byte (and a tab, allowed) at each position.
    func testAForbiddenByteAnywhereInALongValueIsRefused() {
        for length in [8, 9, 16, 23, 40] {
            for position in 1..<(length - 1) {
                for byte: UInt8 in [0x00, 0x0A, 0x0D, 0x09, 0x0B, 0x0E] {
                    var bytes = [UInt8](repeating: UInt8(ascii: "v"), count: length)
                    bytes[position] = byte
                    let value = String(decoding: bytes, as: UTF8.self)
                    XCTAssertEqual(accepted([("x-field", value)]), ![0x00, 0x0A, 0x0D].contains(byte), "byte \(byte) at \(position) of \(length)")
                }
            }
        }
    }

    func testWhitespaceAtEitherEndOfAValueIsRefused() {
        for value in [" a", "\ta", "a ", "a\t", " "] { XCTAssertFalse(accepted([("x-field", value)]), "\(value)") }
        for value in ["a b", "a\tb", ""] { XCTAssertTrue(accepted([("x-field", value)]), "\(value)") }
    }

    func testEveryConnectionSpecificFieldIsRefused() {
        for name in ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"] {
            XCTAssertFalse(accepted([(name, "x")]), name)
        }
        for name in ["connectionx", "keep-alivx", "upgrades", "te"] { XCTAssertTrue(accepted([(name, "x")]), name) }
    }

    func testGitHubsRateLimitFieldsAreReadInTheValidatingWalk() throws {
        let fields: [(name: String, value: String)] = [
            ("x-ratelimit-limit", "5000"), ("x-ratelimit-remaining", "4999"), ("x-ratelimit-reset", "1764644400"), ("x-ratelimit-used", "1"),
        ]
        XCTAssertEqual(try head(fields).rateLimit, .numbers(limit: 5000, remaining: 4999, reset: 1_764_644_400))
    }

    func testARepeatedRateLimitFieldIsLeftToTheFieldsReading() throws {
        let fields: [(name: String, value: String)] = [
            ("x-ratelimit-limit", "5000"), ("x-ratelimit-remaining", "4999"), ("x-ratelimit-reset", "1764644400"), ("x-ratelimit-remaining", "4998"),
        ]
        XCTAssertEqual(try head(fields).rateLimit, .unread)
    }

    func testAHeadWithoutRateLimitFieldsIsKnownToHaveNone() throws {
        XCTAssertEqual(try head([("content-type", "image/png")]).rateLimit, .absent)
    }

    func testTheFirstContentEncodingSaysWhetherTheBodyIsGzip() throws {
        XCTAssertTrue(try head([("content-encoding", "GZIP")]).gzipCoded)
        XCTAssertFalse(try head([("content-encoding", "br"), ("content-encoding", "gzip")]).gzipCoded)
        XCTAssertFalse(try head([]).gzipCoded)
    }

    func testTheAnswerCarriesTheFieldsAndTheRateLimitReading() throws {
        let head = try head([("etag", "\"v1\""), ("x-ratelimit-limit", "60"), ("x-ratelimit-remaining", "59"), ("x-ratelimit-reset", "1")])
        let response = try HTTP2ResponseBody.response(head: head, body: Array("{}".utf8)).get()
        XCTAssertEqual(response.header("ETag"), "\"v1\"")
        XCTAssertEqual(response.rateLimit, .numbers(limit: 60, remaining: 59, reset: 1))
    }
}

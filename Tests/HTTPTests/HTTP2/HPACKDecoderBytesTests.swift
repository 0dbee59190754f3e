// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamsTesting
import XCTest
@testable import HTTP

/// `HPACKDecoder.decodeBytes` (the client's fast path, fields as bytes) against `decode` (its slow
/// twin, fields as `String`s): from the same table, the same fields, marks, list verdict, table
/// and errors. (The RFC's examples go through both in HPACKDecoderTests.)
final class HPACKDecoderBytesTests: XCTestCase {
    private static let names = ["content-type", "etag", "date", "x-ratelimit-remaining", "server", "X-Upper", "bad name", ":status", "vary"]
    private static let values = ["", "200", "W/\"abc\"", "Wed, 02 Dec 2026 22:31:54 GMT", " lead", "trail\t", "a\u{0}b", "é", "gzip", String(repeating: "v", count: 90)]

    /// One block into both, from one table state; fails the test where they differ.
    private func assertAgree(_ decoder: inout HPACKDecoder, _ block: [UInt8], _ context: String) {
        var twin = decoder
        let slow = Result { try decoder.decode(block) }
        let fast = Result { try block.withUnsafeBufferPointer { try twin.decodeBytes($0) } }
        switch (slow, fast) {
        case (.success(let slow), .success(let fast)):
            XCTAssertEqual(fieldPairs(fast.fields), fieldPairs(slow.fields), context)
            XCTAssertEqual(fast.checkedFields, slow.checkedFields, context)
            XCTAssertEqual(fast.overListSize, slow.overListSize, context)
        case (.failure(let slow), .failure(let fast)):
            XCTAssertEqual(fast as? HPACKError, slow as? HPACKError, context)
        default:
            XCTFail("one decoder failed, the other not: \(slow) \(fast) \(context)")
        }
        XCTAssertEqual(twin.dynamicTableSize, decoder.dynamicTableSize, context)
        XCTAssertEqual(twin.dynamicTableCount, decoder.dynamicTableCount, context)
    }

    func testEncodedFieldListsDecodeIntoBytesAsIntoStrings() {
        var random = SeededRandom(seed: 7541)
        var encoder = HPACKEncoder(maxTableSize: 256)
        var decoder = HPACKDecoder(maxTableSize: 256, maxHeaderListSize: 600, memoizesLiterals: true)
        for round in 0..<2_000 {
            let fields = (0..<Int.random(in: 0...9, using: &random)).map { _ in
                (name: Self.names.randomElement(using: &random)!, value: Self.values.randomElement(using: &random)!)
            }
            var block: [UInt8] = []
            encoder.encode(fields, into: &block)
            assertAgree(&decoder, block, "round \(round)")
        }
    }

    /// Literals coded as in an earlier block at the same place are copied from the decoder's
    /// `HPACKLiteralMemo`, with their name's verdict: the same fields and marks as decoding them
    /// (the slow twin), for names that pass and names that do not, after other literals took their
    /// place, and for literals too long to be kept.
    func testLiteralsRepeatedAtTheirPlaceGiveWhatDecodingThemGives() {
        var decoder = HPACKDecoder(maxTableSize: 256, maxHeaderListSize: 4096, memoizesLiterals: true)
        let longValue = String(repeating: "w", count: 120)
        let blocks: [[(String, String)]] = [
            [("date", "Wed, 02 Dec 2026 22:31:54 GMT"), ("x-request-id", "req-1"), ("etag", "\"abc\"")],
            [("date", "Wed, 02 Dec 2026 22:31:54 GMT"), ("x-request-id", "req-2"), ("etag", "\"abd\"")],
            [("X-Upper", "Wed, 02 Dec 2026 22:31:54 GMT"), ("bad name", "req-2"), ("x-request-id", longValue)],
            [("X-Upper", "Wed, 02 Dec 2026 22:31:54 GMT"), ("bad name", "req-2"), ("x-request-id", longValue)],
            [("date", "Wed, 02 Dec 2026 22:31:55 GMT"), ("x-request-id", "req-3"), ("etag", "\"abc\"")],
            [("date", "Wed, 02 Dec 2026 22:31:55 GMT"), ("x-request-id", " lead"), ("etag", "a\u{0}b")],
            [("date", "Wed, 02 Dec 2026 22:31:55 GMT"), ("x-request-id", " lead"), ("etag", "a\u{0}b")],
        ]
        for (round, fields) in (blocks + blocks).enumerated() {
            // `:status` indexed, then each field a literal without indexing, its name new: all Huffman-coded.
            var block: [UInt8] = [0x88]
            for (name, value) in fields {
                block.append(0x00)
                for string in [name, value] {
                    HPACKInteger.encode(HPACKHuffman.encodedCount(Array(string.utf8)), prefixBits: 7, flags: 0x80, into: &block)
                    HPACKHuffman.encode(Array(string.utf8), into: &block)
                }
            }
            assertAgree(&decoder, block, "block \(round)")
        }
    }

    /// A slot whose literal changes block after block rests (keeps what it holds, takes a new one
    /// every `retryEvery`-th miss), and a name that changes with it is not given the old one's
    /// verdict: the same fields and marks as decoding them, through misses in a row, the rest, a
    /// retry, and a literal that then stays the same.
    func testLiteralsThatChangeEveryBlockGiveWhatDecodingThemGives() {
        var decoder = HPACKDecoder(maxTableSize: 256, maxHeaderListSize: 4096, memoizesLiterals: true)
        let rounds = 3 * Int(HPACKLiteralMemo.retryEvery)
        for round in 0..<rounds {
            // Names alternate between one that passes and one that does not, values change each
            // block, until the last few blocks, which repeat one literal.
            let settled = round >= rounds - 4
            let name = settled ? "x-request-id" : (round % 2 == 0 ? "x-request-id" : "Bad Name")
            let value = settled ? "req-final" : "req-\(round)"
            var block: [UInt8] = [0x88, 0x00]
            for string in [name, value] {
                HPACKInteger.encode(HPACKHuffman.encodedCount(Array(string.utf8)), prefixBits: 7, flags: 0x80, into: &block)
                HPACKHuffman.encode(Array(string.utf8), into: &block)
            }
            assertAgree(&decoder, block, "block \(round)")
        }
    }

    /// Encoded blocks with a byte changed: mostly refused, sometimes other fields or indexes.
    func testDamagedBlocksGetTheSameAnswerFromBothDecoders() {
        var random = SeededRandom(seed: 9113)
        for round in 0..<2_000 {
            var encoder = HPACKEncoder(maxTableSize: 256)
            var decoder = HPACKDecoder(maxTableSize: 256, maxHeaderListSize: 400, maxStringLength: 64, memoizesLiterals: true)
            for block in 0..<3 {
                let fields = (0..<Int.random(in: 1...6, using: &random)).map { _ in
                    (name: Self.names.randomElement(using: &random)!, value: Self.values.randomElement(using: &random)!)
                }
                var bytes: [UInt8] = []
                encoder.encode(fields, into: &bytes)
                if !bytes.isEmpty { bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random) }
                assertAgree(&decoder, bytes, "round \(round) block \(block)")
            }
        }
    }

    /// `HPACKFieldBytes.storage(laidOutAfter:in:spans:)` (the decoder's: the spans and trailer
    /// written after the bytes in its room, then one copy) against `storage(bytes:spans:)` (its
    /// slow twin, the parts appended): the same layout, from no field to many, whatever the room held.
    func testLayoutWrittenInTheRoomIsTheLayoutAppended() {
        var random = SeededRandom(seed: 7540)
        for fieldCount in [0, 1, 2, 7, 16, 40] {
            let byteCount = fieldCount * Int.random(in: 0...12, using: &random)
            let bytes = (0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &random) }
            let spans = (0..<fieldCount * 4).map { _ in UInt32.random(in: 0...UInt32(max(byteCount, 1)), using: &random) }
            let appended = HPACKFieldBytes.storage(bytes: bytes, spans: spans)
            var room = bytes + (0..<(fieldCount * 16 + 8 + Int.random(in: 0...9, using: &random))).map { _ in UInt8.random(in: 0...255, using: &random) }
            let laidOut = room.withUnsafeMutableBytes { room in
                spans.withUnsafeBufferPointer { HPACKFieldBytes.storage(laidOutAfter: byteCount, in: room, spans: $0) }
            }
            XCTAssertEqual(laidOut, appended, "\(fieldCount) fields")
        }
    }

    func testListAboveTheLimitIsNotKeptAsBytesEither() throws {
        var decoder = HPACKDecoder(maxHeaderListSize: 16 * 1024)
        var block: [UInt8] = [0x40, 0x01, UInt8(ascii: "x"), 0x7F, 0xA1, 0x1E]
        block += [UInt8](repeating: UInt8(ascii: "a"), count: 4000)
        block += [UInt8](repeating: 0xBE, count: 1000)
        let decoded = try block.withUnsafeBufferPointer { try decoder.decodeBytes($0) }
        XCTAssertTrue(decoded.overListSize)
        XCTAssertEqual(decoded.count, 0)
        XCTAssertEqual(decoder.dynamicTableCount, 1, "the table stays in step with the encoder's")
    }

    /// A response's `:status` dropped where the block lies: the rest are its fields as received.
    func testDroppingTheFirstFieldLeavesTheOthersInOrder() throws {
        var encoder = HPACKEncoder()
        var block: [UInt8] = []
        let fields: [(name: String, value: String)] = [(":status", "200"), ("etag", "\"v1\""), ("x-a", "1"), ("x-a", "2")]
        encoder.encode(fields, into: &block)
        var decoder = HPACKDecoder()
        var decoded = try block.withUnsafeBufferPointer { try decoder.decodeBytes($0) }
        decoded.dropFirst()
        let received = ReceivedFields(decoded)
        XCTAssertEqual(received.count, 3)
        XCTAssertEqual(received["ETag"], "\"v1\"")
        XCTAssertEqual(received.combinedValue(for: "x-a"), "1, 2")
        XCTAssertEqual(received.headers, HTTPHeaders([("etag", "\"v1\""), ("x-a", "1"), ("x-a", "2")]))
    }
}

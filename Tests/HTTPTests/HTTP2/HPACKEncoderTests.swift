// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamsTesting
import XCTest
@testable import HTTP

final class HPACKEncoderTests: XCTestCase {
    /// A request's `:path` goes out as a raw literal (Huffman-coding it cost more than the two or
    /// three bytes it saves), from the tables and from a template alike; other values as before.
    func testAPathValueIsARawLiteralAndOtherValuesStayHuffmanCoded() throws {
        let path = "/users?per_page=30&since=0"
        let fields: [(name: String, value: String)] = [(":method", "GET"), (":path", path), ("x-note", "aaaaaaaaaaaaaaaa")]
        var plain = HPACKEncoder(), templated = HPACKEncoder()
        var decoder = HPACKDecoder()
        let series = FieldSeries()
        let raw = [UInt8(path.utf8.count)] + Array(path.utf8)
        // The second block is the template's.
        for round in 0..<2 {
            var block: [UInt8] = [], fromTemplate: [UInt8] = []
            plain.encode(fields, into: &block)
            templated.encode(fields, template: series, varying: (1, (":path", path)), into: &fromTemplate)
            XCTAssertNotNil(block.firstRange(of: raw), "the path is not raw in \(block), round \(round)")
            XCTAssertEqual(fromTemplate, block, "round \(round)")
            XCTAssertNil(block.firstRange(of: Array("aaaaaaaaaaaaaaaa".utf8)), "another value went out raw, round \(round)")
            XCTAssertEqual(try decoder.decode(block).fields.map(\.value), fields.map(\.value), "round \(round)")
        }
    }

    func testHuffmanCodesAreTheRFCs() { // RFC 7541 C.4
        for (text, hex) in [("www.example.com", "f1e3 c2e5 f23a 6ba0 ab90 f4ff"), ("no-cache", "a8eb 1064 9cbf"),
                            ("custom-key", "25a8 49e9 5ba9 7d7f"), ("custom-value", "25a8 49e9 5bb8 e8b4 bf")] {
            var out: [UInt8] = []
            HPACKHuffman.encode(Array(text.utf8), into: &out)
            XCTAssertEqual(out, hexBytes(hex), text)
            XCTAssertEqual(HPACKHuffman.encodedCount(Array(text.utf8)), out.count, text)
        }
    }

    func testHuffmanRoundTripsEveryByte() throws {
        let bytes = (0...255).map { UInt8($0) } + Array("mixed Text / 12:34".utf8)
        var encoded: [UInt8] = []
        HPACKHuffman.encode(bytes, into: &encoded)
        let decoded = try encoded.withUnsafeBufferPointer { (bytes) throws(HPACKError) in try HPACKHuffman.decode(bytes) }
        XCTAssertEqual(decoded, bytes)
    }

    func testStaticPairIsOneByte() {
        var encoder = HPACKEncoder()
        var out: [UInt8] = []
        encoder.encode([(name: ":status", value: "200")], into: &out)
        XCTAssertEqual(out, [0x88])
    }

    func testRepeatedFieldIsIndexedFromTheDynamicTable() throws {
        var encoder = HPACKEncoder()
        var decoder = HPACKDecoder()
        let fields: [(name: String, value: String)] = [(":status", "200"), ("content-type", "application/json"), ("server", "StreamService")]
        var first: [UInt8] = []
        encoder.encode(fields, into: &first)
        var second: [UInt8] = []
        encoder.encode(fields, into: &second)
        XCTAssertEqual(second.count, 3, "every field indexed: one byte each")
        XCTAssertEqual(fieldPairs(try decoder.decode(first).fields), fieldPairs(fields))
        XCTAssertEqual(fieldPairs(try decoder.decode(second).fields), fieldPairs(fields))
    }

    func testVolatileFieldsStayOutOfTheTable() {
        var encoder = HPACKEncoder()
        var out: [UInt8] = []
        let fields: [(name: String, value: String)] = [("date", "Mon, 21 Oct 2013 20:13:21 GMT"), ("content-length", "15")]
        encoder.encode(fields, into: &out)
        XCTAssertEqual(encoder.dynamicTableSize, 0)
    }

    func testSmallerPeerTableIsAnnouncedAtTheStartOfTheNextBlock() throws {
        var encoder = HPACKEncoder()
        var decoder = HPACKDecoder()
        var out: [UInt8] = []
        encoder.encode([(name: "x-a", value: "1")], into: &out)
        _ = try decoder.decode(out)
        encoder.setMaxTableSize(0)
        encoder.setMaxTableSize(100)
        out = []
        encoder.encode([(name: "x-a", value: "1")], into: &out)
        XCTAssertEqual(Array(out.prefix(3)), [0x20, 0x3F, 0x45], "the smallest size (0), then the final one (100)")
        XCTAssertEqual(fieldPairs(try decoder.decode(out).fields), ["x-a: 1"])
        XCTAssertEqual(decoder.dynamicTableSize, encoder.dynamicTableSize)
    }

    func testLargeIntegersUseContinuationBytes() { // RFC 7541 C.1.2: 1337 with a 5-bit prefix
        var out: [UInt8] = []
        HPACKInteger.encode(1337, prefixBits: 5, flags: 0, into: &out)
        XCTAssertEqual(out, [0x1F, 0x9A, 0x0A])
        var position = 0
        XCTAssertEqual(try out.withUnsafeBufferPointer { try HPACKInteger.decode($0, at: &position, prefixBits: 5) }, 1337)
    }
}

/// The memo (the encoder's fast path) against its slow twin, `memoizes: false`.
final class HPACKFieldMemoTests: XCTestCase {
    /// Blocks as a server sends them: one route's fields in one order, values that change per
    /// response (date, content-length, request id), others that change now and then, fields that
    /// come and go (shifting the positions after them), table resizes. Varied by arithmetic on the
    /// response number, so a failing block replays.
    func testMemoizedEncoderWritesTheSameBytesAsTheSlowTwin() throws {
        var fast = HPACKEncoder()
        var slow = HPACKEncoder(memoizes: false)
        var decoder = HPACKDecoder()
        let types = ["application/json", "text/html; charset=utf-8", "application/problem+json"]
        for response in 0..<3_000 {
            if response % 500 == 499 {
                let size = [0, 64, 256, 4096][response / 500 % 4]
                fast.setMaxTableSize(size)
                slow.setMaxTableSize(size)
            }
            var fields: [(name: String, value: String)] = [
                (":status", ["200", "404", "503", "201"][response * 7 % 4]),
                ("date", "Fri, 27 Nov 2026 19:\(50 + response / 1_000):0\(response / 100 % 10) GMT"),
                ("server", "StreamService"),
                ("content-length", String(response * 7_919 % 20_000)),
                ("content-type", types[response * 13 % 5 % types.count]),
            ]
            if response * 5 % 3 != 0 { fields.append(("cache-control", "no-store")) }
            if response % 7 == 0 { fields.append(("x-custom-\(response % 50)", String(repeating: "v", count: response % 300))) }
            fields.append(("x-request-id", "req-\(response)"))
            var fastBlock: [UInt8] = []
            var slowBlock: [UInt8] = []
            fast.encode(fields, into: &fastBlock)
            slow.encode(fields, into: &slowBlock)
            XCTAssertEqual(fastBlock, slowBlock, "response \(response)")
            XCTAssertEqual(fieldPairs(try decoder.decode(fastBlock).fields), fieldPairs(fields), "response \(response)")
            XCTAssertEqual(fast.dynamicTableSize, slow.dynamicTableSize)
        }
    }

    func testRepeatedResponseIsCopiedWithoutTouchingTheTable() throws {
        var encoder = HPACKEncoder()
        var decoder = HPACKDecoder()
        let fields: [(name: String, value: String)] = [(":status", "200"), ("server", "StreamService"), ("content-length", "15")]
        var blocks: [[UInt8]] = []
        for _ in 0..<3 {
            var block: [UInt8] = []
            encoder.encode(fields, into: &block)
            blocks.append(block)
        }
        XCTAssertEqual(blocks[1], blocks[2], "the second and third responses are the same bytes")
        for block in blocks { XCTAssertEqual(fieldPairs(try decoder.decode(block).fields), fieldPairs(fields)) }
    }

    func testNeverIndexedNameKeepsItsNamePartForANewValue() throws {
        var encoder = HPACKEncoder()
        var slow = HPACKEncoder(memoizes: false)
        var decoder = HPACKDecoder()
        for id in ["req-1", "req-22", "req-333"] {
            var block: [UInt8] = []
            encoder.encode([(name: "x-request-id", value: id)], into: &block)
            var expected: [UInt8] = []
            slow.encode([(name: "x-request-id", value: id)], into: &expected)
            XCTAssertEqual(block, expected, id)
            XCTAssertEqual(fieldPairs(try decoder.decode(block).fields), ["x-request-id: \(id)"])
        }
        XCTAssertEqual(encoder.dynamicTableSize, 0)
    }

    /// A client's requests: a new `:path` each (not indexed, its name part kept), among them the
    /// static table's `/` and `/index.html` and short paths, which the memo leaves to the tables.
    func testRequestsWithANewPathEachWriteTheSameBytesAsTheSlowTwin() throws {
        var fast = HPACKEncoder()
        var slow = HPACKEncoder(memoizes: false)
        var decoder = HPACKDecoder()
        let paths = ["/users?limit=30", "/u/1?v=4", "/", "/u/22?v=4", "/index.html", "/a", "/index.htm", "/u/333?v=4&s=40", "/"]
        for (number, path) in (paths + paths.reversed()).enumerated() {
            let fields: [(name: String, value: String)] = [
                (":method", "GET"), (":scheme", "http"), (":authority", "127.0.0.1:8081"), (":path", path),
                ("accept", "application/json"), ("user-agent", "stream-service"), ("if-none-match", "\"etag-\(number)\""),
            ]
            var fastBlock: [UInt8] = []
            var slowBlock: [UInt8] = []
            fast.encode(fields, into: &fastBlock)
            slow.encode(fields, into: &slowBlock)
            XCTAssertEqual(fastBlock, slowBlock, "request \(number) \(path)")
            XCTAssertEqual(fieldPairs(try decoder.decode(fastBlock).fields), fieldPairs(fields), "request \(number)")
        }
        XCTAssertEqual(fast.dynamicTableSize, slow.dynamicTableSize)
        XCTAssertEqual(decoder.dynamicTableCount, 3, "`:authority`, `accept` and `user-agent` indexed; paths and validators not")
    }

    func testStaticPairsAreFoundByNameAndValue() {
        for (offset, entry) in HPACKStaticTable.entries.enumerated() {
            XCTAssertEqual(HPACKStaticTable.pairIndex(name: entry.name, value: entry.value), entry.value.isEmpty ? nil : offset + 1, "\(entry)")
        }
        XCTAssertNil(HPACKStaticTable.pairIndex(name: ":status", value: "201"))
        XCTAssertNil(HPACKStaticTable.pairIndex(name: "x-unknown", value: "200"))
    }

    private final class Key: Sendable {}

    /// Request heads of a series (one key, all fields but `:path` the same) encoded from the kept
    /// bytes around `:path` (the fast path) give the bytes of the slow twin (no memo, no template),
    /// whatever comes between: heads of another series, heads without a key that insert fields, a
    /// table size change, a `:path` of `/` (a static pair).
    func testRequestHeadsFromATemplateAreTheSlowTwinsBytes() throws {
        var random = SeededRandom(seed: 7541)
        let keys = [Key(), Key()]
        let shared: [[(name: String, value: String)]] = [
            [(":authority", "api.example:8080"), ("accept", "application/vnd.github+json"), ("user-agent", "StreamService")],
            [(":authority", "avatars.example"), ("accept", "image/*"), ("user-agent", "StreamService"), ("x-extra", "1")],
        ]
        var fast = HPACKEncoder(maxTableSize: 256), slow = HPACKEncoder(maxTableSize: 256, memoizes: false)
        var decoder = HPACKDecoder(maxTableSize: 256)
        for round in 0..<3_000 {
            let series = Int.random(in: 0..<2, using: &random)
            let path = ["/", "/users?per_page=30", "/u/\(round)?v=4", String(repeating: "p", count: round % 70)].randomElement(using: &random)!
            let fields: [(name: String, value: String)] = [(":method", "GET"), (":scheme", "http"), shared[series][0], (":path", path)] + shared[series].dropFirst()
            var fastBlock: [UInt8] = [], slowBlock: [UInt8] = []
            switch Int.random(in: 0..<10, using: &random) {
            case 0:
                // Not of a series: a field of its own, inserted.
                let other = fields + [("x-round", "\(round)")]
                fast.encode(other, template: nil, varying: (3, (":path", path)), into: &fastBlock)
                slow.encode(other, into: &slowBlock)
            case 1:
                let size = [128, 256, 200].randomElement(using: &random)!
                fast.setMaxTableSize(size)
                slow.setMaxTableSize(size)
                fallthrough
            default:
                fast.encode(fields, template: keys[series], varying: (3, (":path", path)), into: &fastBlock)
                slow.encode(fields, into: &slowBlock)
            }
            XCTAssertEqual(fastBlock, slowBlock, "round \(round)")
            XCTAssertEqual(fast.dynamicTableSize, slow.dynamicTableSize, "round \(round)")
            _ = try decoder.decode(fastBlock)
        }
    }
}

/// A template key for a series of heads.
private final class FieldSeries: Sendable {}

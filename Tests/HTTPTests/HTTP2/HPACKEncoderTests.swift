import XCTest
@testable import HTTP

final class HPACKEncoderTests: XCTestCase {
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
        var decoded: [UInt8] = []
        try encoded.withUnsafeBufferPointer { try HPACKHuffman.decode($0, into: &decoded) }
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

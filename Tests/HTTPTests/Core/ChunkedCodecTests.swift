import XCTest
@testable import HTTP

final class ChunkedCodecTests: XCTestCase {
    func testFramesChunksWithHexSizes() {
        XCTAssertEqual(String(decoding: ChunkedCodec.chunk(Array("abc".utf8)), as: UTF8.self), "3\r\nabc\r\n")
        XCTAssertEqual(Array(ChunkedCodec.chunk([UInt8](repeating: 0, count: 4096)).prefix(6)), Array("1000\r\n".utf8))
        var out: [UInt8] = []
        ChunkedCodec.appendHex(255, to: &out)
        XCTAssertEqual(out, Array("ff".utf8))
    }

    func testReadsTheSizeOfASizeLineAndIgnoresExtensions() {
        XCTAssertEqual(ChunkedCodec.size(ofSizeLine: Array("1A".utf8)), .success(26))
        XCTAssertEqual(ChunkedCodec.size(ofSizeLine: Array("2;name=value".utf8)), .success(2))
        XCTAssertEqual(ChunkedCodec.size(ofSizeLine: Array("0 ".utf8)), .success(0))
    }

    func testRefusesSizeLinesThatCouldSmuggle() {
        XCTAssertEqual(ChunkedCodec.size(ofSizeLine: Array("".utf8)), .failure(.invalidSize))
        XCTAssertEqual(ChunkedCodec.size(ofSizeLine: Array("+5".utf8)), .failure(.invalidSize))
        XCTAssertEqual(ChunkedCodec.size(ofSizeLine: Array("5 x".utf8)), .failure(.invalidSize))
        XCTAssertEqual(ChunkedCodec.size(ofSizeLine: Array("1000000000000000".utf8)), .failure(.sizeTooLarge))
        XCTAssertEqual(ChunkedCodec.size(ofSizeLine: Array("5;a\u{0}".utf8)), .failure(.invalidExtension))
    }
}

import NetCore
import XCTest

final class GzipTests: XCTestCase {
    func testRoundTripsThroughGzip() throws {
        let text = Array(String(repeating: "stream service ", count: 1000).utf8)
        let compressed = try Gzip.compress(text)
        XCTAssertEqual(Array(compressed.prefix(2)), [0x1F, 0x8B])
        XCTAssertEqual(try Gzip.decompress(compressed), text)
    }

    func testRefusesOutputOverTheLimit() throws {
        let compressed = try Gzip.compress([UInt8](repeating: 0, count: 1 << 20))
        XCTAssertThrowsError(try Gzip.decompress(compressed, maximumOutput: 1000))
    }

    func testRejectsGarbage() {
        XCTAssertThrowsError(try Gzip.decompress(Array("not compressed at all".utf8)))
    }
}

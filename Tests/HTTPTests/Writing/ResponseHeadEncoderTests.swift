import XCTest
@testable import HTTP

final class ResponseHeadEncoderTests: XCTestCase {
    func testNeverCopiesFramingFieldsFromTheHandler() {
        var out: [UInt8] = []
        ResponseHeadEncoder.encode(
            status: .ok, version: .http1_1, headers: ["content-length": "99", "X-A": "b\r\nInjected: yes"],
            framing: .contentLength(2), keepAlive: true, serverName: nil, into: &out
        )
        let head = String(decoding: out, as: UTF8.self)
        XCTAssertTrue(head.contains("Content-Length: 2\r\n"))
        XCTAssertFalse(head.contains("99"))
        XCTAssertFalse(head.contains("\r\nInjected"))
    }
}

import XCTest
@testable import HTTP
import HTTPTestSupport

final class ResponseWriterTests: XCTestCase {
    private let writer = ResponseWriter(serverName: "Test", compressor: ResponseCompressor(minimumBytes: 256))

    func testTheClosingProblemIsProblemJSONThatClosesTheConnection() throws {
        let text = String(decoding: writer.closingProblem(.requestTimeout, detail: "too slow"), as: UTF8.self)
        let (head, body) = try XCTUnwrap(text.split(separator: "\r\n\r\n", maxSplits: 1).map(String.init).pairs)
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), head)
        XCTAssertTrue(head.contains("\r\nConnection: close"), head)
        XCTAssertTrue(head.contains("\r\nServer: Test"), head)
        XCTAssertTrue(head.contains("\r\nContent-Type: application/problem+json"), head)
        XCTAssertTrue(head.contains("\r\nContent-Length: \(body.utf8.count)"), head)
        XCTAssertEqual(body, #"{"type":"about:blank","title":"Request Timeout","status":408,"detail":"too slow"}"#)
    }

    func testAHeadAnswerCarriesTheLengthButNoBody() {
        let request = Request(method: .head, target: "/x", id: "r1")
        let (bytes, bodyBytes) = writer.fixed(.text("hello"), body: Array("hello".utf8), for: request, keepAlive: true)
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.contains("\r\nContent-Length: 5\r\n"), text)
        XCTAssertTrue(text.contains("\r\nX-Request-ID: r1\r\n"), text)
        XCTAssertTrue(text.hasSuffix("\r\n\r\n"), text)
        XCTAssertEqual(bodyBytes, 0)
    }

    func testAnHTTP10StreamIsFramedByTheCloseAndEndsTheConnection() {
        var keepAlive = true
        let request = Request(method: .get, target: "/s", version: .http1_0)
        let (head, framing) = writer.streamHead(.stream(.never(), contentType: "text/plain"), for: request, keepAlive: &keepAlive)
        XCTAssertEqual(framing, .untilClose)
        XCTAssertFalse(keepAlive)
        XCTAssertFalse(String(decoding: head, as: UTF8.self).contains("Transfer-Encoding"))
        XCTAssertEqual(ResponseWriter.piece([1, 2], framing: framing), [1, 2])
        XCTAssertNil(ResponseWriter.end(framing: framing))
    }

    func testAnHTTP11StreamIsChunked() {
        var keepAlive = true
        let (head, framing) = writer.streamHead(.stream(.never(), contentType: "text/plain"), for: Request(method: .get, target: "/s"), keepAlive: &keepAlive)
        XCTAssertEqual(framing, .chunked)
        XCTAssertTrue(keepAlive)
        XCTAssertTrue(String(decoding: head, as: UTF8.self).contains("\r\nTransfer-Encoding: chunked"))
        XCTAssertEqual(ResponseWriter.end(framing: framing), Array("0\r\n\r\n".utf8))
    }
}

private extension Array where Element == String {
    var pairs: (String, String)? { count == 2 ? (self[0], self[1]) : nil }
}

import NetCore
import XCTest
@testable import HTTP

final class HTTPResponseParserTests: XCTestCase {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func testContentLengthBodyCompletesAndConnectionIsReusable() throws {
        var parser = HTTPResponseParser()
        let progress = try parser.feed(bytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: b\r\n\r\nhello"))
        XCTAssertEqual(progress, .complete(HTTPClientResponse(status: .ok, headers: ["Content-Length": "5", "X-A": "b"], body: bytes("hello")), reusable: true))
    }

    func testBytesArrivingOneAtATimeGiveTheSameResponse() throws {
        var parser = HTTPResponseParser()
        let wire = bytes("HTTP/1.1 201 Created\r\nContent-Length: 3\r\n\r\nabc")
        var last = HTTPResponseParser.Progress.needMore
        for byte in wire { last = try parser.feed([byte]) }
        guard case .complete(let response, _) = last else { return XCTFail("incomplete") }
        XCTAssertEqual(response.status.code, 201)
        XCTAssertEqual(response.body, bytes("abc"))
    }

    func testChunkedBodyIsReassembled() throws {
        var parser = HTTPResponseParser()
        let progress = try parser.feed(bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n"))
        guard case .complete(let response, let reusable) = progress else { return XCTFail("incomplete") }
        XCTAssertEqual(response.body, bytes("abcde"))
        XCTAssertTrue(reusable)
    }

    func testConnectionCloseMakesItNotReusable() throws {
        var parser = HTTPResponseParser()
        let progress = try parser.feed(bytes("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"))
        guard case .complete(_, let reusable) = progress else { return XCTFail("incomplete") }
        XCTAssertFalse(reusable)
    }

    func testCloseBeforeTheAnnouncedLengthIsTruncation() throws {
        var parser = HTTPResponseParser()
        XCTAssertEqual(try parser.feed(bytes("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")), .needMore)
        XCTAssertThrowsError(try parser.connectionClosed()) { XCTAssertEqual($0 as? HTTPResponseParser.Failure, .truncated) }
    }

    func testBodyWithoutLengthEndsAtClose() throws {
        var parser = HTTPResponseParser()
        XCTAssertEqual(try parser.feed(bytes("HTTP/1.1 200 OK\r\n\r\nabc")), .needMore)
        XCTAssertEqual(try parser.connectionClosed().body, bytes("abc"))
    }

    func testGzipBodyIsDecoded() throws {
        let plain = bytes(String(repeating: "stream ", count: 100))
        let gzipped = try Gzip.compress(plain)
        var parser = HTTPResponseParser()
        let head = bytes("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(gzipped.count)\r\n\r\n")
        guard case .complete(let response, _) = try parser.feed(head + gzipped) else { return XCTFail("incomplete") }
        XCTAssertEqual(response.body, plain)
        XCTAssertNil(response.headers["content-encoding"])
    }

    func testNoContentHasNoBody() throws {
        var parser = HTTPResponseParser()
        guard case .complete(let response, _) = try parser.feed(bytes("HTTP/1.1 304 Not Modified\r\nETag: x\r\n\r\n")) else { return XCTFail("incomplete") }
        XCTAssertEqual(response.status.code, 304)
    }

    func testGarbageStatusLineIsMalformed() {
        var parser = HTTPResponseParser()
        XCTAssertThrowsError(try parser.feed(bytes("SMTP ready\r\n\r\n")))
    }

    func testInterimAnswerIsSkippedAndTheFinalOneInTheSameReadReturned() throws {
        var parser = HTTPResponseParser()
        let progress = try parser.feed(bytes("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
        XCTAssertEqual(progress, .complete(HTTPClientResponse(status: .ok, headers: ["Content-Length": "2"], body: bytes("ok")), reusable: true))
    }

    func testNoContentAnswerNamingGzipHasNoBodyToDecode() throws {
        var parser = HTTPResponseParser()
        guard case .complete(let response, _) = try parser.feed(bytes("HTTP/1.1 204 No Content\r\nContent-Encoding: gzip\r\n\r\n")) else {
            return XCTFail("incomplete")
        }
        XCTAssertEqual(response.status.code, 204)
        XCTAssertEqual(response.body, [])
    }

    func testHeaderNameWithABareCarriageReturnIsMalformed() {
        var parser = HTTPResponseParser()
        XCTAssertThrowsError(try parser.feed(bytes("HTTP/1.1 200 OK\r\nX-A\rContent-Length: 0\r\n\r\n"))) { error in
            XCTAssertEqual(error as? HTTPResponseParser.Failure, .malformed("bad header field"))
        }
    }

    func testHeaderValueWithANulIsMalformed() {
        var parser = HTTPResponseParser()
        XCTAssertThrowsError(try parser.feed(bytes("HTTP/1.1 200 OK\r\nX-A: b\u{0}c\r\nContent-Length: 0\r\n\r\n"))) { error in
            XCTAssertEqual(error as? HTTPResponseParser.Failure, .malformed("bad header field"))
        }
    }
}

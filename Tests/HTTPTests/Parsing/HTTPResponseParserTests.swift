// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

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

    func testTheRateLimitFieldsAreNotedAsTheHeadIsRead() throws {
        var parser = HTTPResponseParser()
        let progress = try parser.feed(bytes("HTTP/1.1 200 OK\r\nX-RateLimit-Limit: 5000\r\nx-ratelimit-remaining: 4990\r\nX-RATELIMIT-RESET: 1764644400\r\nContent-Length: 0\r\n\r\n"))
        guard case .complete(let response, _) = progress else { return XCTFail("incomplete") }
        XCTAssertEqual(response.rateLimit, .numbers(limit: 5000, remaining: 4990, reset: 1_764_644_400))
    }

    func testAnInterimAnswersRateLimitFieldsAreNotTheFinalOnes() throws {
        var parser = HTTPResponseParser()
        let progress = try parser.feed(bytes("HTTP/1.1 103 Early Hints\r\nX-RateLimit-Limit: 1\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))
        guard case .complete(let response, _) = progress else { return XCTFail("incomplete") }
        XCTAssertEqual(response.rateLimit, .absent)
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

    func testACloseOptionAmongOthersInAnyCaseMakesItNotReusable() throws {
        var parser = HTTPResponseParser()
        let progress = try parser.feed(bytes("HTTP/1.1 200 OK\r\nconnection: Upgrade ,  CLOSE\r\nContent-Length: 0\r\n\r\n"))
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

    func testAControlCharacterOrDELAnywhereInALongValueIsMalformed() {
        // Long values are checked eight bytes at a time: a bad byte in every position of a word and of the tail.
        for bad: UInt8 in [0, 1, 0x0B, 0x1F, 0x7F] {
            for position in 0..<21 {
                var value = Array("abcdefghijklmnopqrstu".utf8)
                value[position] = bad
                var parser = HTTPResponseParser()
                let wire = bytes("HTTP/1.1 200 OK\r\nX-A: ") + value + bytes("\r\nContent-Length: 0\r\n\r\n")
                XCTAssertThrowsError(try parser.feed(wire), "byte \(bad) at \(position)")
            }
        }
    }

    func testTabsAndNonASCIIBytesInALongValueAreKept() throws {
        var parser = HTTPResponseParser()
        let value = bytes("a\tb c\td\u{E9}f ghij\tklmnop\u{7E}q")
        let wire = bytes("HTTP/1.1 200 OK\r\nX-A: ") + value + bytes("\r\nContent-Length: 0\r\n\r\n")
        guard case .complete(let response, _) = try parser.feed(wire) else { return XCTFail("incomplete") }
        XCTAssertEqual(response.headers["X-A"].map { Array($0.utf8) }, value)
    }

    func testAHeadSplitOverReadsWithTheBodyBehindItGivesTheWholeResponse() throws {
        var parser = HTTPResponseParser()
        XCTAssertEqual(try parser.feed(bytes("HTTP/1.1 200 OK\r\nContent-Ty")), .needMore)
        XCTAssertEqual(try parser.feed(bytes("pe: image/png\r\nContent-Length: 4\r")), .needMore)
        let progress = try parser.feed(bytes("\n\r\npng!"))
        XCTAssertEqual(progress, .complete(HTTPClientResponse(status: .ok, headers: ["Content-Type": "image/png", "Content-Length": "4"], body: bytes("png!")), reusable: true))
    }

    func testABodySplitOverReadsIsJoined() throws {
        var parser = HTTPResponseParser()
        XCTAssertEqual(try parser.feed(bytes("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nab")), .needMore)
        XCTAssertEqual(try parser.feed(bytes("cd")), .needMore)
        guard case .complete(let response, let reusable) = try parser.feed(bytes("ef")) else { return XCTFail("incomplete") }
        XCTAssertEqual(response.body, bytes("abcdef"))
        XCTAssertTrue(reusable)
    }

    func testBytesBeyondTheAnswerMakeTheConnectionNotReusable() throws {
        var parser = HTTPResponseParser()
        guard case .complete(let response, let reusable) = try parser.feed(bytes("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1")) else {
            return XCTFail("incomplete")
        }
        XCTAssertEqual(response.body, bytes("ok"))
        XCTAssertFalse(reusable)
    }

    func testAnHTTP10AnswerIsNotReusableUnlessItAsksForKeepAlive() throws {
        var plain = HTTPResponseParser(), keepAlive = HTTPResponseParser()
        guard case .complete(_, let plainReusable) = try plain.feed(bytes("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n")),
              case .complete(_, let keptReusable) = try keepAlive.feed(bytes("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n"))
        else { return XCTFail("incomplete") }
        XCTAssertFalse(plainReusable)
        XCTAssertTrue(keptReusable)
    }

    func testAStatusLineWithoutAReasonPhraseIsAccepted() throws {
        var parser = HTTPResponseParser()
        guard case .complete(let response, _) = try parser.feed(bytes("HTTP/1.1 404\r\nContent-Length: 0\r\n\r\n")) else { return XCTFail("incomplete") }
        XCTAssertEqual(response.status.code, 404)
    }

    func testStatusLinesWithABadVersionOrCodeAreMalformed() {
        for line in ["HTTP/2.0 200 OK", "HTTP/1.1 20 OK", "HTTP/1.1 2000 OK", "HTTP/1.1 099 Low", "HTTP/1.1 600 High", "HTTP/1.1 2x0 OK", "HTTP/1.1  200 OK", "HTTP/1.1"] {
            var parser = HTTPResponseParser()
            XCTAssertThrowsError(try parser.feed(bytes(line + "\r\nContent-Length: 0\r\n\r\n")), line) { error in
                XCTAssertEqual(error as? HTTPResponseParser.Failure, .malformed("bad status line"), line)
            }
        }
    }

    func testTheFirstContentLengthFieldInAnyCaseFramesTheBody() throws {
        var parser = HTTPResponseParser()
        let progress = try parser.feed(bytes("HTTP/1.1 200 OK\r\ncontent-LENGTH: 3\r\nContent-Length: 5\r\n\r\nabc"))
        guard case .complete(let response, let reusable) = progress else { return XCTFail("incomplete") }
        XCTAssertEqual(response.body, bytes("abc"))
        XCTAssertTrue(reusable)
    }

    func testALengthThatIsNoNumberLeavesTheBodyToTheConnectionsClose() throws {
        for length in ["3x", "", "-", "99999999999999999999"] {
            var parser = HTTPResponseParser()
            XCTAssertEqual(try parser.feed(bytes("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\n\r\nabc")), .needMore, length)
            XCTAssertEqual(try parser.connectionClosed().body, bytes("abc"), length)
        }
    }

    func testFieldNamesKeepTheirSpellingAndValuesLoseTheirSurroundingBlanks() throws {
        var parser = HTTPResponseParser()
        let wire = "HTTP/1.1 200 OK\r\nX-RateLimit-Remaining:  4999 \r\nx-ratelimit-reset:\t17\r\nETag: \"a\"\r\nContent-Length: 0\r\n\r\n"
        guard case .complete(let response, _) = try parser.feed(bytes(wire)) else { return XCTFail("incomplete") }
        XCTAssertEqual(Array(response.headers.map(\.name)), ["X-RateLimit-Remaining", "x-ratelimit-reset", "ETag", "Content-Length"])
        XCTAssertEqual(Array(response.headers.map(\.value)), ["4999", "17", "\"a\"", "0"])
    }

    func testAnAnnouncedLengthFarBeyondWhatArrivesIsOnlyWaitedFor() throws {
        var parser = HTTPResponseParser()
        XCTAssertEqual(try parser.feed(bytes("HTTP/1.1 200 OK\r\nContent-Length: 999999999999999\r\n\r\nabc")), .needMore)
        XCTAssertThrowsError(try parser.connectionClosed())
    }
}

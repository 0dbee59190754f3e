// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

/// The response parser's one-pass head walk (`parseWholeHead`) against its slow twin (`headEnd`,
/// then `parseHead`): the same answers, the same failures, however the bytes are split into reads.
final class ResponseHeadWalkTests: XCTestCase {
    /// What one read came to: the answer with its rate limit (which its `==` leaves out), or the failure.
    private enum Step: Equatable {
        case needMore
        case complete(HTTPClientResponse, RateLimitFields, reusable: Bool)
        case failed(String)
    }

    /// The outcome of each read, feeding `wire` as two reads split at `split` (as one, when nil).
    private func outcome(_ wire: [UInt8], split: Int?, onePass: Bool, method: HTTPMethod = .get) -> [Step] {
        var parser = HTTPResponseParser(requestMethod: method, onePassHeads: onePass)
        var steps: [Step] = []
        let reads = split.map { [Array(wire[..<$0]), Array(wire[$0...])] } ?? [wire]
        for read in reads {
            do {
                switch try parser.feed(read) {
                case .needMore: steps.append(.needMore)
                case .complete(let response, let reusable): steps.append(.complete(response, response.rateLimit, reusable: reusable))
                }
            } catch {
                steps.append(.failed("\(error)"))
                break
            }
        }
        return steps
    }

    private func assertAgree(_ text: String, method: HTTPMethod = .get, file: StaticString = #filePath, line: UInt = #line) {
        assertAgree(Array(text.utf8), method: method, file: file, line: line)
    }

    private func assertAgree(_ wire: [UInt8], method: HTTPMethod = .get, file: StaticString = #filePath, line: UInt = #line) {
        for split in [nil] + Array(0...wire.count) {
            XCTAssertEqual(outcome(wire, split: split, onePass: true, method: method), outcome(wire, split: split, onePass: false, method: method),
                           "\(String(decoding: wire, as: UTF8.self).debugDescription) split at \(split.map(String.init) ?? "none")", file: file, line: line)
        }
    }

    func testATypicalAnswerIsReadAsTheTwinReadsIt() {
        assertAgree("HTTP/1.1 200 OK\r\nDate: Thu, 03 Dec 2026 09:30:46 GMT\r\nServer: demo\r\nContent-Length: 5\r\nCache-Control: max-age=300\r\nContent-Type: image/png\r\nETag: \"8a6b\"\r\nX-Request-ID: req-3\r\n\r\nhello")
    }

    func testTheFieldsTheParserNotesAreNotedAsTheTwinNotesThem() {
        assertAgree("HTTP/1.1 200 OK\r\nX-RateLimit-Limit: 5000\r\nx-ratelimit-remaining: 4990\r\nX-RATELIMIT-RESET: 1764644400\r\nContent-Length: 0\r\n\r\n")
        assertAgree("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nab")
        assertAgree("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nab")
        assertAgree("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n")
        assertAgree("HTTP/1.1 200 OK\r\nContent-Encoding: identity\r\nContent-Length: 1\r\n\r\nx")
        assertAgree("HTTP/1.1 200 OK\r\n\r\nto the close")
        assertAgree("HTTP/1.1 204 No Content\r\n\r\n")
        assertAgree("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n", method: .head)
    }

    func testAnInterimAnswerThenTheFinalOneAreReadAsTheTwinReadsThem() {
        assertAgree("HTTP/1.1 103 Early Hints\r\nLink: </a>\r\nX-RateLimit-Limit: 1\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        assertAgree("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nz")
    }

    func testLinesTheWalkLeavesAreDecidedByTheTwin() {
        let heads = [
            "HTTP/1.1 200 OK\r\nA: b\r\n continued\r\nContent-Length: 0\r\n\r\n", // obs-fold
            "HTTP/1.1 200 OK\r\nA:\tb\r\nContent-Length: 0\r\n\r\n", // a tab
            "HTTP/1.1 200 OK\r\nA: b\nB: c\r\nContent-Length: 0\r\n\r\n", // bare LF
            "HTTP/1.1 200 OK\r\nA: b\rB: c\r\nContent-Length: 0\r\n\r\n", // bare CR
            "HTTP/1.1 200 OK\r\nA b: c\r\n\r\n", "HTTP/1.1 200 OK\r\n: v\r\n\r\n", "HTTP/1.1 200 OK\r\nA: caf\u{E9}\r\n\r\n",
            "HTTP/1.1 200 OK\r\nA: b\r\r\n\r\n", "HTTP/1.1 200 OK\r\n\r\r\n\r\n", "HTTP/1.1 200 OK\r\nA: b\r\n\n\r\n\r\n",
        ]
        for head in heads { assertAgree(head) }
    }

    func testBadStatusLinesFailAsTheTwinFails() {
        for head in ["HTTP/2.0 200 OK\r\n\r\n", "HTTP/1.1 20 OK\r\n\r\n", "HTTP/1.1 999 Nine\r\n\r\n", "\r\n\r\n", "HTTP/1.1 200\r\nA: b\r\n\r\n", "junk\r\nA: b\r\n\r\n"] {
            assertAgree(head)
        }
    }

    func testMoreFieldsThanTheWalkKeepsAreReadByTheTwin() {
        let fields = (0..<(HTTPResponseParser.onePassMaxFields + 3)).map { "X-F\($0): v\($0)\r\n" }.joined()
        assertAgree("HTTP/1.1 200 OK\r\n\(fields)Content-Length: 1\r\n\r\nq")
        let exactly = (0..<(HTTPResponseParser.onePassMaxFields - 1)).map { "X-F\($0): v\($0)\r\n" }.joined()
        assertAgree("HTTP/1.1 200 OK\r\n\(exactly)Content-Length: 1\r\n\r\nq")
    }

    func testAHeadOverTheLimitFailsAsTheTwinFails() {
        let value = String(repeating: "v", count: HTTPResponseParser.maxHeaderBytes)
        let wire = Array("HTTP/1.1 200 OK\r\nBig: \(value)\r\nContent-Length: 0\r\n\r\n".utf8)
        XCTAssertEqual(outcome(wire, split: nil, onePass: true), outcome(wire, split: nil, onePass: false))
        guard case .failed = outcome(wire, split: nil, onePass: true).first else { return XCTFail("accepted") }
    }

    func testTheWalksFieldsAreTheTwinsFields() throws {
        let wire = Array("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nX-A: 1\r\nx-a:  2 \r\nContent-Length: 0\r\n\r\n".utf8)
        var fast = HTTPResponseParser(onePassHeads: true), slow = HTTPResponseParser(onePassHeads: false)
        guard case .complete(let one, _) = try fast.feed(wire), case .complete(let other, _) = try slow.feed(wire),
              let walked = one.received, let built = other.received else { return XCTFail("incomplete") }
        XCTAssertEqual(walked, built)
        XCTAssertEqual(walked.count, 4)
        XCTAssertEqual(walked["content-type"], "image/png")
        XCTAssertEqual(walked.combinedValue(for: "X-A"), "1, 2")
    }
}

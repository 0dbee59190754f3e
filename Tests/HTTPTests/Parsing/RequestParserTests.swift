// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP
import HTTPTestSupport

final class RequestParserTests: XCTestCase {
    private func parse(_ text: String, limits: HTTPLimits = HTTPLimits(), splitEvery step: Int? = nil) -> [RequestParser.Output] {
        parse(bytes: Array(text.utf8), limits: limits, splitEvery: step)
    }

    private func parse(bytes: [UInt8], limits: HTTPLimits = HTTPLimits(), splitEvery step: Int? = nil) -> [RequestParser.Output] {
        var parser = RequestParser(limits: limits)
        var outputs: [RequestParser.Output] = []
        let size = step ?? max(bytes.count, 1)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + size)
            bytes[offset..<end].withUnsafeBytes { parser.feed($0) { outputs.append($0) } }
            offset = end
        }
        return outputs
    }

    private func requests(_ outputs: [RequestParser.Output]) -> [(head: RequestHead, notes: HeadNotes, body: [UInt8])] {
        outputs.compactMap { if case .request(let head, let notes, let body) = $0 { return (head, notes, body) } else { return nil } }
    }

    private func request(_ head: RequestHead) -> Request {
        Request(head: head, scheme: "http", body: [], id: "", remoteAddress: "", peerAddress: nil, loopScheduler: nil)
    }

    private func failure(_ outputs: [RequestParser.Output]) -> HTTPParseError? {
        for output in outputs { if case .failure(let error) = output { return error } }
        return nil
    }

    func testParsesMethodTargetVersionAndHeaders() {
        let parsed = requests(parse("GET /a?b=1 HTTP/1.1\r\nHost: x\r\nX-Two:  spaced value \r\n\r\n"))
        XCTAssertEqual(parsed.count, 1)
        XCTAssertEqual(parsed[0].head.method, .get)
        XCTAssertEqual(parsed[0].head.target.text, "/a?b=1")
        XCTAssertEqual(parsed[0].head.version, .http1_1)
        XCTAssertEqual(parsed[0].head.headers["x-two"], "spaced value")
    }

    func testNotesTheRequestIDFieldAndSplitsTheTarget() {
        let parsed = requests(parse(
            "GET /health HTTP/1.1\r\nHost: x\r\nx-request-id: abc\r\nX-Request-ID: second\r\n\r\n"
                + "GET /a?b=1 HTTP/1.1\r\nHost: x\r\n\r\nGET /%7Euser HTTP/1.1\r\nHost: x\r\n\r\nGET * HTTP/1.1\r\nHost: x\r\n\r\n"))
        XCTAssertEqual(parsed.map(\.notes.requestID), ["abc", nil, nil, nil])
        XCTAssertEqual(parsed.map(\.head.target.path), ["/health", "/a", "/~user", "*"])
        XCTAssertEqual(parsed.map(\.head.target), parsed.map { ParsedTarget.splitInGeneral($0.head.target.text) })
        XCTAssertEqual(request(parsed[1].head).path, "/a")
        XCTAssertEqual(request(parsed[2].head).path, "/~user")
    }

    func testGivesTheSameResultWhateverTheSplit() {
        let text = "POST /e HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\nGET / HTTP/1.0\r\n\r\n"
        for step in 1...9 {
            let parsed = requests(parse(text, splitEvery: step))
            XCTAssertEqual(parsed.count, 2, "split every \(step)")
            XCTAssertEqual(parsed.first?.body, Array("abc".utf8))
        }
    }

    func testIgnoresEmptyLinesBeforeARequest() {
        XCTAssertEqual(requests(parse("\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n")).count, 1)
    }

    func testReportsContinueExpectedBeforeTheBody() {
        let outputs = parse("PUT /x HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
        guard case .continueExpected = outputs.first else { return XCTFail("\(outputs)") }
        XCTAssertTrue(requests(outputs).isEmpty)
    }

    func testStaysFailedAfterAnError() {
        let outputs = parse("GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(failure(outputs), .malformed("HTTP/1.1 request without Host"))
        XCTAssertTrue(requests(outputs).isEmpty)
    }

    func testMapsEachLimitToItsStatus() {
        var limits = HTTPLimits()
        limits.maxRequestLineBytes = 20
        XCTAssertEqual(failure(parse("GET /0123456789012345678 HTTP/1.1\r\n", limits: limits))?.status, .uriTooLong)
        XCTAssertEqual(failure(parse("GET / HTTP/1.1\r\nHost: x\r\nX: " + String(repeating: "a", count: 40_000), limits: HTTPLimits()))?.status, .requestHeaderFieldsTooLarge)
        XCTAssertEqual(failure(parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n"))?.status, .payloadTooLarge)
    }

    func testLargeHeaderIsRejectedInLinearTime() {
        // 100 KB of header fed a byte at a time must not rescan what it already saw.
        let text = "GET / HTTP/1.1\r\nHost: x\r\nX: " + String(repeating: "a", count: 100_000) + "\r\n\r\n"
        let started = DispatchTime.now().uptimeNanoseconds
        XCTAssertEqual(failure(parse(text, splitEvery: 1))?.status, .requestHeaderFieldsTooLarge)
        XCTAssertLessThan(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9, 2.0)
    }

    func testSplitsATargetAtItsFirstQueryMarkAsTheGeneralRuleDoes() {
        let parsed = requests(parse(
            "GET /a?b=1 HTTP/1.1\r\nHost: x\r\n\r\nGET /a?b%20c=1?d HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /%7E?x HTTP/1.1\r\nHost: x\r\n\r\nGET /a HTTP/1.1\r\nHost: x\r\n\r\nGET a?b HTTP/1.1\r\nHost: x\r\n\r\n"))
        XCTAssertEqual(parsed.map(\.head.target.path), ["/a", "/a", "/~", "/a", "a"])
        XCTAssertEqual(parsed.map(\.head.target.query), ["b=1", "b%20c=1?d", "x", "", "b"])
        XCTAssertEqual(parsed.map(\.head.target), parsed.map { ParsedTarget.splitInGeneral($0.head.target.text) })
        let request = request(parsed[1].head)
        XCTAssertEqual(request.path, "/a")
        XCTAssertEqual(request.query["b c"], "1?d")
    }

    func testATargetWithABytePastASCIIBeforeItsQueryIsSplitWhereItsQueryMarkIs() {
        // 0xA4 becomes U+FFFD (three bytes) in the target's string: the `?` is no longer 7 bytes in.
        let parsed = requests(parse(bytes: Array("GET /h".utf8) + [0xA4] + Array("ello?x=1 HTTP/1.1\r\nHost: a\r\n\r\n".utf8)))
        XCTAssertEqual(parsed.map(\.head.target.path), ["/h\u{FFFD}ello"])
        XCTAssertEqual(parsed.map(\.head.target.query), ["x=1"])
        XCTAssertEqual(parsed.map(\.head.target), parsed.map { ParsedTarget.splitInGeneral($0.head.target.text) })
    }

    func testNotesTheConnectionOptionsOfEveryConnectionField() {
        let parsed = requests(parse(
            "GET / HTTP/1.0\r\nConnection: Upgrade , Keep-Alive\r\n\r\n"
                + "GET / HTTP/1.1\r\nHost: x\r\nconnection: upgrade\r\nCONNECTION: te,\tCLOSE \r\n\r\n"
                + "GET / HTTP/1.1\r\nHost: x\r\nConnection: closed, keep-alive\r\n\r\n"
                + "GET / HTTP/1.0\r\nConnection: keep-alive-ish\r\n\r\n"))
        XCTAssertEqual(parsed.map { $0.notes.persists(in: $0.head.version) }, [true, false, true, false])
        XCTAssertEqual(parsed.map { $0.notes.persists(in: $0.head.version) }, parsed.map {
            request($0.head).wantsKeepAlive
        })
    }

    func testNotesTheFirstUserAgentField() {
        let parsed = requests(parse("GET / HTTP/1.1\r\nHost: x\r\nuser-agent: first/1\r\nUser-Agent: second\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n"))
        XCTAssertEqual(parsed.map(\.notes.userAgent), ["first/1", nil])
    }

    func testNotesWhetherATraceparentFieldCameInAnySpellingAsItsFieldsSay() {
        let with = "GET / HTTP/1.1\r\nHost: x\r\ntraceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\r\n\r\n"
        let spelled = "GET / HTTP/1.1\r\nHost: x\r\nTraceParent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\r\n\r\n"
        let without = "GET / HTTP/1.1\r\nHost: x\r\ntracestate: a=1\r\ntraceparents: x\r\n\r\n"
        // Each block twice: the second is replayed (`HeadReplay`), its notes with it.
        for step in [nil, 1, 9] {
            let parsed = requests(parse(with + with + without + without + spelled + spelled, splitEvery: step))
            XCTAssertEqual(parsed.map(\.notes.hasTraceparent), [true, true, false, false, true, true], "split every \(String(describing: step))")
            XCTAssertEqual(parsed.map(\.notes.hasTraceparent), parsed.map { $0.head.headers["traceparent"] != nil })
        }
    }

    func testAFieldLineThatChangedBetweenRequestsIsReadAfresh() {
        let parsed = requests(parse(
            "GET / HTTP/1.1\r\nHost: a\r\nX-Id: 1\r\nAccept: */*\r\n\r\n"
                + "GET / HTTP/1.1\r\nHost: a\r\nX-Id: 22\r\nAccept: */*\r\n\r\n"
                + "GET / HTTP/1.1\r\nHost: a\r\nX-Id: 33\r\nAccept: */*\r\n\r\n"
                + "GET / HTTP/1.1\r\nAccept: */*\r\nHost: b\r\nX-Id: 33\r\n\r\n"))
        XCTAssertEqual(parsed.map { $0.head.headers["X-Id"] }, ["1", "22", "33", "33"])
        XCTAssertEqual(parsed.map { $0.head.headers["Host"] }, ["a", "a", "a", "b"])
        XCTAssertEqual(parsed.map { $0.head.headers.map(\.name) }.last, ["Accept", "Host", "X-Id"])
    }

    func testARepeatedFieldLineStillCountsTowardsTheFieldLimit() {
        var limits = HTTPLimits()
        limits.maxHeaderFields = 2
        let outputs = parse(
            "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\nA: 1\r\n\r\n"
                + "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nA: 1\r\n\r\n", limits: limits)
        XCTAssertEqual(requests(outputs).count, 2)
        XCTAssertEqual(failure(outputs), .headersTooLarge("too many header fields"))
    }

    func testARepeatedFramingFieldLineStillFramesTheBody() {
        let outputs = parse(
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc"
                + "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\ndef"
                + "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nghi"
                + "POST / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n")
        XCTAssertEqual(requests(outputs).map { String(decoding: $0.body, as: UTF8.self) }, ["abc", "def", "ghi"])
        XCTAssertEqual(failure(outputs), .malformed("more than one Host header"))
    }

    func testARepeatedFieldLineSplitOverReadsIsRecognised() {
        let text = "GET / HTTP/1.1\r\nHost: a\r\nUser-Agent: u/1\r\nConnection: close\r\n\r\n"
        for step in [1, 5, 11] {
            let parsed = requests(parse(text + text + text, splitEvery: step))
            XCTAssertEqual(parsed.map(\.notes.userAgent), ["u/1", "u/1", "u/1"], "split every \(step)")
            XCTAssertEqual(parsed.map { $0.notes.persists(in: $0.head.version) }, [false, false, false], "split every \(step)")
        }
    }

    func testKnowsTheCommonMethodsAndVersionsByTheirExactBytes() {
        let parsed = requests(parse(
            "GET / HTTP/1.1\r\nHost: x\r\n\r\nPOST / HTTP/1.0\r\n\r\nHEAD / HTTP/1.1\r\nHost: x\r\n\r\n"
                + "get / HTTP/1.1\r\nHost: x\r\n\r\nPOSTS / HTTP/1.1\r\nHost: x\r\n\r\nHEAT / HTTP/1.1\r\nHost: x\r\n\r\n"))
        XCTAssertEqual(parsed.map(\.head.method.rawValue), ["GET", "POST", "HEAD", "get", "POSTS", "HEAT"])
        XCTAssertEqual(parsed.map(\.head.version), [.http1_1, .http1_0, .http1_1, .http1_1, .http1_1, .http1_1])
        XCTAssertEqual(failure(parse("GET / http/1.1\r\n")), .malformed("invalid HTTP version"))
        XCTAssertEqual(failure(parse("GET / HTTP/1.2\r\n")), .unsupportedVersion)
        XCTAssertEqual(failure(parse("GET / HTTP/1.1x\r\n")), .malformed("invalid HTTP version"))
    }

    func testARepeatedFieldBlockGivesTheSameHeadsWhateverTheSplit() {
        let block = "Host: a\r\nUser-Agent: u/1\r\nX-Request-ID: r\r\nConnection: close\r\n\r\n"
        let text = (1...4).map { "GET /\($0)?q=\($0) HTTP/1.1\r\n" + block }.joined()
        for step in [nil, 1, 7, 30] {
            let parsed = requests(parse(text, splitEvery: step))
            XCTAssertEqual(parsed.map(\.head.target.text), ["/1?q=1", "/2?q=2", "/3?q=3", "/4?q=4"], "split every \(String(describing: step))")
            XCTAssertEqual(Set(parsed.map { $0.head.headers.map { "\($0.name)=\($0.value)" } }), [["Host=a", "User-Agent=u/1", "X-Request-ID=r", "Connection=close"]])
            XCTAssertEqual(parsed.map(\.notes.userAgent), ["u/1", "u/1", "u/1", "u/1"])
            XCTAssertEqual(parsed.map(\.notes.requestID), ["r", "r", "r", "r"])
            XCTAssertEqual(parsed.map { $0.notes.persists(in: $0.head.version) }, [false, false, false, false])
            XCTAssertEqual(parsed.map(\.head.target.path), ["/1", "/2", "/3", "/4"])
        }
    }

    func testARepeatedFieldBlockIsJudgedAgainWithItsRequestLine() {
        let block = "Connection: keep-alive\r\n\r\n"
        let outputs = parse("GET / HTTP/1.0\r\n" + block + "GET / HTTP/1.0\r\n" + block + "GET / HTTP/1.0\r\n" + block + "GET / HTTP/1.1\r\n" + block)
        XCTAssertEqual(requests(outputs).count, 3)
        XCTAssertEqual(failure(outputs), .malformed("HTTP/1.1 request without Host"))
    }

    func testARepeatedFieldBlockStillFramesTheBody() {
        let request = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\n"
        let parsed = requests(parse(request + "abc" + request + "def" + request + "ghi" + request + "jkl"))
        XCTAssertEqual(parsed.map { String(decoding: $0.body, as: UTF8.self) }, ["abc", "def", "ghi", "jkl"])
    }

    func testABlockThatDiffersFromTheLastIsReadAfresh() {
        let parsed = requests(parse(
            "GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET / HTTP/1.1\r\nHost: a\r\nAccept: x\r\n\r\nGET / HTTP/1.1\r\nHost: b\r\n\r\nGET / HTTP/1.1\r\nHost: b\r\n\r\n"))
        XCTAssertEqual(parsed.map { $0.head.headers.count }, [1, 1, 1, 2, 1, 1])
        XCTAssertEqual(parsed.map { $0.head.headers["Host"] }, ["a", "a", "a", "a", "b", "b"])
    }

    /// Everything a request output says, to compare a replayed head with one read line by line.
    private func described(_ outputs: [RequestParser.Output]) -> [String] {
        outputs.map { output in
            switch output {
            case .continueExpected(let head): return "continue \(head.target.text)"
            case .failure(let error): return "failure \(error)"
            case .request(let head, let notes, let body):
                return "\(head.method) \(head.target) \(head.version) \(head.headers.map { "\($0.name)=\($0.value)" }) "
                    + "\(String(describing: head.contentLength)) \(head.isChunked) \(head.expectsContinue) "
                    + "\(String(describing: notes.requestID)) \(String(describing: notes.userAgent)) "
                    + "\(notes.persists(in: head.version)) \(body)"
            }
        }
    }

    func testReplayedHeadsAreTheHeadsReadLineByLine() {
        // Fed whole, the repeated blocks are replayed (whole and line by line); fed a byte at a
        // time, every line is read afresh: the authoritative twin.
        let blocks = [
            "Host: a\r\nUser-Agent: u/1\r\nX-Request-ID: r\r\nConnection: keep-alive, close\r\n\r\n",
            "Host: a\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\nabc",
            "Host: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n",
        ]
        for block in blocks {
            let text = ["GET /1 HTTP/1.1\r\n", "POST /2?q HTTP/1.1\r\n", "PUT /%7E3 HTTP/1.0\r\n", "GET /4 HTTP/1.1\r\n"]
                .map { $0 + block }.joined()
            XCTAssertEqual(described(parse(text)), described(parse(text, splitEvery: 1)), block)
        }
    }
}

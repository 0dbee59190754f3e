// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import NetCore
import XCTest
@testable import Domain
@testable import HTTP

/// The quota's report as the HTTP client's parser noted it (`RateLimitFields`) agrees with its
/// slow twin, three field lookups on the answer (`UpstreamQuota.report(readingFieldsOf:)`),
/// whatever the head holds.
final class QuotaFieldsReadingTests: XCTestCase {
    static let heads: [String] = [
        "X-RateLimit-Limit: 5000\r\nX-RateLimit-Remaining: 4999\r\nX-RateLimit-Reset: 1764644400",
        "x-ratelimit-limit: 60\r\nx-ratelimit-remaining: 0\r\nx-ratelimit-reset: 0001764644400\r\nx-ratelimit-used: 60",
        "X-RATELIMIT-RESET: 1764644400\r\nX-RATELIMIT-REMAINING: 12\r\nX-RATELIMIT-LIMIT: 5000",
        "X-RateLimit-Limit: 5000\r\nX-RateLimit-Remaining: 4999",
        "X-RateLimit-Limit: 5000\r\nX-RateLimit-Remaining: 4999\r\nX-RateLimit-Reset: 1764644400\r\nX-RateLimit-Remaining: 4998",
        "X-RateLimit-Limit: +5000\r\nX-RateLimit-Remaining: -1\r\nX-RateLimit-Reset: 1.7e9",
        "X-RateLimit-Limit: 5000\r\nX-RateLimit-Remaining: 4,999\r\nX-RateLimit-Reset: 1764644400",
        "X-RateLimit-Limit: 5000\r\nX-RateLimit-Remaining: 4999\r\nX-RateLimit-Reset: 99999999999999999999999",
        "X-RateLimit-Limit:\r\nX-RateLimit-Remaining: 4999\r\nX-RateLimit-Reset: 1764644400",
        "X-RateLimit-Limit: 5000 \r\nX-RateLimit-Remaining:\t4999\r\nX-RateLimit-Reset:  1764644400  ",
        "Content-Type: image/png",
        "",
    ]

    struct Incomplete: Error {}

    /// The answer the HTTP client makes of `head`, as the upstream transport hands it on.
    func answer(head: String, gzip: Bool = false) throws -> UpstreamResponse {
        let body: [UInt8] = gzip ? try Gzip.compress(Array("{}".utf8)) : Array("{}".utf8)
        let fields = head.isEmpty ? "" : head + "\r\n"
        var parser = HTTPResponseParser()
        let wire = Array("HTTP/1.1 200 OK\r\n\(fields)\(gzip ? "Content-Encoding: gzip\r\n" : "")Content-Length: \(body.count)\r\n\r\n".utf8) + body
        guard case .complete(let response, _) = try parser.feed(wire) else { throw Incomplete() }
        return UpstreamResponse(response)
    }

    func testTheParsersReadingAgreesWithReadingTheFields() throws {
        for gzip in [false, true] {
            for head in Self.heads {
                let response = try answer(head: head, gzip: gzip)
                XCTAssertEqual(UpstreamQuota.report(of: response), UpstreamQuota.report(readingFieldsOf: response), "\(head) gzip: \(gzip)")
            }
        }
    }

    /// The answer the HTTP/2 client makes of `head`: names lowercase and values trimmed as an
    /// HTTP/2 peer must send them (RFC 9113 §8.2.1), read by `HTTP2ResponseHead`'s walk.
    func answerOverHTTP2(head: String, gzip: Bool = false) throws -> UpstreamResponse {
        let body: [UInt8] = gzip ? try Gzip.compress(Array("{}".utf8)) : Array("{}".utf8)
        var block: [(name: String, value: String)] = [(":status", "200")]
        for line in head.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            var value = line[line.index(after: colon)...]
            while let first = value.first, first == " " || first == "\t" { value.removeFirst() }
            while let last = value.last, last == " " || last == "\t" { value.removeLast() }
            block.append((line[..<colon].lowercased(), String(value)))
        }
        if gzip { block.append(("content-encoding", "gzip")) }
        block.append(("content-length", String(body.count)))
        return UpstreamResponse(try HTTP2ResponseBody.response(head: HTTP2ResponseHead(validating: block), body: body).get())
    }

    func testTheHTTP2HeadsReadingAgreesWithReadingTheFields() throws {
        for gzip in [false, true] {
            for head in Self.heads {
                let response = try answerOverHTTP2(head: head, gzip: gzip)
                XCTAssertEqual(UpstreamQuota.report(of: response), UpstreamQuota.report(readingFieldsOf: response), "\(head) gzip: \(gzip)")
            }
        }
        XCTAssertEqual(try answerOverHTTP2(head: Self.heads[0]).rateLimit, .numbers(limit: 5000, remaining: 4999, reset: 1_764_644_400))
    }

    func testGitHubsFieldsAreReadByTheParserAndNotLookedUpAgain() throws {
        let response = try answer(head: Self.heads[0])
        XCTAssertEqual(response.rateLimit, .numbers(limit: 5000, remaining: 4999, reset: 1_764_644_400))
        XCTAssertEqual(UpstreamQuota.report(of: response), UpstreamQuota.Snapshot(limit: 5000, remaining: 4999, reset: 1_764_644_400))
    }

    func testAnAnswerWithoutTheFieldsIsKnownToHaveNone() throws {
        XCTAssertEqual(try answer(head: "Content-Type: image/png").rateLimit, .absent)
    }

    func testARepeatedFieldIsLeftToTheFieldsReading() throws {
        XCTAssertEqual(try answer(head: Self.heads[4]).rateLimit, .unread)
    }

    func testAnAnswerMadeOtherwiseIsReadFromItsFields() {
        let response = UpstreamResponse(status: 200, headers: ["X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "59", "X-RateLimit-Reset": "10"])
        XCTAssertEqual(response.rateLimit, .unread)
        XCTAssertEqual(UpstreamQuota.report(of: response), UpstreamQuota.Snapshot(limit: 60, remaining: 59, reset: 10))
    }
}

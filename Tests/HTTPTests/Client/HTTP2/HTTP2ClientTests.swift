// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import StreamServiceConcurrency
import Streams
import XCTest
@testable import HTTP

/// `HTTPClient` over HTTP/2 to an upstream that speaks h2c with prior knowledge
/// (`h2_upstream.py`, python3-h2): streams on one connection, GOAWAY, resets, and the limits a hostile
/// upstream meets.
final class HTTP2ClientTests: XCTestCase {
    private let client = HTTPClient(http2: HTTP2ClientSettings(mode: .priorKnowledge))

    private func get(_ upstream: H2Upstream, _ path: String, method: HTTPMethod = .get) -> HTTPClientRequest {
        HTTPClientRequest(method: method, url: URL(string: upstream.url + path)!)
    }

    func testARequestIsAnsweredOverHTTP2WithPriorKnowledge() throws {
        let upstream = try H2Upstream("serve")
        let response = try outcome(of: get(upstream, "/users?since=0"), via: client).get()
        XCTAssertEqual(response.status.code, 200)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"{"path": "/users?since=0"}"#)
        XCTAssertEqual(response.header("ETag"), "\"v1\"")
        XCTAssertEqual(response.header("X-RateLimit-Remaining"), "4999")
        XCTAssertTrue(upstream.waitFor("request"))
        XCTAssertEqual(upstream.events("request").count, 1)
    }

    func testSixteenRequestsInFlightShareOneConnection() throws {
        let upstream = try H2Upstream("burst", "16")
        let requests = (0..<16).map { get(upstream, "/avatars/\($0)") }
        let results = outcomes(of: requests, via: client)
        XCTAssertEqual(results.compactMap { try? $0.get().body.count }, Array(repeating: 256 * 1024, count: 16))
        XCTAssertEqual(upstream.events("connection").count, 1)
        XCTAssertEqual(upstream.events("burst").first?["open"] as? Int, 16)
        XCTAssertEqual(client.openConnections(to: URL(string: upstream.url)!), 1)
    }

    /// Requests sent from answers' handlers open their streams while the answers are handed out
    /// and go out together after them (`HTTP2ClientConnection.afterInput`): each is answered, on the one connection.
    func testRequestsSentFromAnswersAreAnsweredOnTheSameConnection() throws {
        let upstream = try H2Upstream("serve")
        let paths = Locked([String]())
        let done = expectation(description: "eight answers")
        done.expectedFulfillmentCount = 8
        let bag = DisposeBag()
        let client = client, base = upstream.url
        @Sendable func send(_ index: Int) {
            client.send(HTTPClientRequest(method: .get, url: URL(string: base + "/users/\(index)")!)).watch(
                data: { response in
                    paths.withLock { $0.append(String(decoding: response.body, as: UTF8.self)) }
                    // Two first answers, each sending three more from its handler.
                    if index < 2 { for next in 0..<3 { send(2 + index * 3 + next) } }
                },
                error: { _ in done.fulfill() },
                end: { done.fulfill() }
            ).disposed(by: bag)
        }
        send(0)
        send(1)
        wait(for: [done], timeout: 10)
        XCTAssertEqual(paths.withLock { $0.sorted() }, (0..<8).map { #"{"path": "/users/\#($0)"}"# }.sorted())
        XCTAssertEqual(upstream.events("connection").count, 1)
    }

    func testRequestsAboveAGoAwaysLastStreamAreRetriedOnANewConnection() throws {
        let upstream = try H2Upstream("goaway", "6")
        let results = outcomes(of: (0..<6).map { get(upstream, "/users/u\($0)") }, via: client)
        XCTAssertEqual(results.compactMap { try? $0.get().status.code }, Array(repeating: 200, count: 6), "\(results)")
        // The second connection's line can reach this process after the answers it carried (see `waitFor`).
        XCTAssertTrue(upstream.waitFor("connection", count: 2))
        XCTAssertEqual(upstream.events("connection").count, 2)
        XCTAssertTrue(upstream.waitFor("request", count: 10), "six on the first connection, four again on the second")
        XCTAssertEqual(upstream.events("request").filter { $0["connection"] as? Int == 2 }.count, 4)
    }

    func testARequestThatIsNotIdempotentIsNotRetriedAfterAGoAway() throws {
        let upstream = try H2Upstream("goaway", "3")
        let results = outcomes(of: [get(upstream, "/a"), get(upstream, "/b"), get(upstream, "/c", method: .post)], via: client)
        XCTAssertEqual(try results[0].get().status.code, 200)
        XCTAssertEqual(try results[1].get().status.code, 200)
        guard case .failure(.connection) = results[2] else { return XCTFail("a POST above the GOAWAY was retried: \(results[2])") }
        XCTAssertTrue(upstream.waitFor("request", count: 3))
        XCTAssertEqual(upstream.events("request").filter { $0["path"] as? String == "/c" }.count, 1)
    }

    func testAStreamResetByTheUpstreamFailsThatRequestAlone() throws {
        let upstream = try H2Upstream("reset")
        guard case .failure(.connection(let reason)) = outcome(of: get(upstream, "/first"), via: client) else { return XCTFail("the reset stream was answered") }
        XCTAssertTrue(reason.contains("reset"), reason)
        XCTAssertEqual(try outcome(of: get(upstream, "/second"), via: client).get().status.code, 200)
        XCTAssertEqual(upstream.events("connection").count, 1)
    }

    func testARefusedStreamIsSentAgain() throws {
        let upstream = try H2Upstream("refuse")
        XCTAssertEqual(try outcome(of: get(upstream, "/users"), via: client).get().status.code, 200)
        XCTAssertTrue(upstream.waitFor("request", count: 2))
        XCTAssertEqual(upstream.events("request").count, 2)
    }

    func testAWindowThatNeverOpensDoesNotHoldBackARequestWithoutABody() throws {
        let upstream = try H2Upstream("zero-window")
        XCTAssertEqual(try outcome(of: get(upstream, "/users"), via: client).get().status.code, 200)
    }

    func testAHeaderListAboveTheLimitFailsTheRequest() throws {
        let upstream = try H2Upstream("big-headers")
        guard case .failure(.malformed(let reason)) = outcome(of: get(upstream, "/users"), via: client) else { return XCTFail("answered") }
        XCTAssertTrue(reason.contains("header list"), reason)
        // A stream error: the connection (its HPACK table in step) carries the next request.
        guard case .failure(.malformed) = outcome(of: get(upstream, "/users/2"), via: client) else { return XCTFail("answered") }
        XCTAssertEqual(upstream.events("connection").count, 1)
    }

    func testAContinuationFloodEndsTheConnectionWithEnhanceYourCalm() throws {
        let upstream = try H2Upstream("continuation-flood")
        guard case .failure = outcome(of: get(upstream, "/users"), via: client) else { return XCTFail("answered") }
        XCTAssertTrue(upstream.waitFor("goaway"))
        XCTAssertEqual(upstream.events("goaway").first?["code"] as? Int, 11, "GOAWAY ENHANCE_YOUR_CALM")
    }

    func testAWindowOpenedBeyondItsMaximumIsAFlowControlError() throws {
        let upstream = try H2Upstream("overflow")
        guard case .failure = outcome(of: get(upstream, "/avatars/1"), via: client) else { return XCTFail("answered") }
        XCTAssertTrue(upstream.waitFor("goaway"))
        XCTAssertEqual(upstream.events("goaway").first?["code"] as? Int, 3, "GOAWAY FLOW_CONTROL_ERROR")
    }

    func testABodyShorterThanItsContentLengthFailsTheRequest() throws {
        let upstream = try H2Upstream("short-body")
        guard case .failure(.malformed(let reason)) = outcome(of: get(upstream, "/users"), via: client) else { return XCTFail("answered") }
        XCTAssertTrue(reason.contains("content-length"), reason)
    }

    func testResponseTrailersAreIgnored() throws {
        let upstream = try H2Upstream("trailers")
        let response = try outcome(of: get(upstream, "/users"), via: client).get()
        XCTAssertEqual(response.body, Array("hello".utf8))
        XCTAssertNil(response.header("x-checksum"))
    }

    func testDisposingMidBodySendsRstStreamCancel() throws {
        let upstream = try H2Upstream("stall")
        let subscription = client.send(get(upstream, "/avatars/1")).watch(data: { _ in XCTFail("a stalled body was answered") })
        XCTAssertTrue(upstream.waitFor("request"))
        subscription.dispose()
        XCTAssertTrue(upstream.waitFor("reset"), upstream.process.output)
        XCTAssertEqual(upstream.events("reset").first?["code"] as? Int, 8, "RST_STREAM CANCEL")
        XCTAssertEqual(upstream.events("connection").count, 1)
    }

    func testARequestOutlastingItsTimeoutFailsWithTimedOutAndResetsItsStream() throws {
        let upstream = try H2Upstream("stall")
        var request = get(upstream, "/avatars/1")
        request.timeout = .milliseconds(300)
        XCTAssertEqual(outcome(of: request, via: client), .failure(.timedOut(after: .milliseconds(300))))
        XCTAssertTrue(upstream.waitFor("reset"), upstream.process.output)
        XCTAssertEqual(upstream.events("reset").first?["code"] as? Int, 8, "RST_STREAM CANCEL, as a dispose sends")
    }
}

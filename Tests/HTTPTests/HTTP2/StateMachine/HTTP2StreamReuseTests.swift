// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

/// A client machine opens its next stream on its last closed one when nothing else holds it
/// (`HTTP2Stream.reopen`, the fast twin of a new `HTTP2Stream`).
final class HTTP2StreamReuseTests: XCTestCase {
    func testAReopenedStreamMatchesANewOne() {
        let used = HTTP2Stream(id: 1, state: .idle, receiveWindow: 10, sendWindow: 20, startedAt: .now)
        used.state.openLocally(endStream: true)
        used.receiveWindow = HTTP2FlowWindow(3)
        used.sendWindow = HTTP2FlowWindow(4)
        used.unacknowledgedBytes = 7
        used.body = [1, 2, 3]
        used.declaredContentLength = 3
        used.bodyStartedAt = 9
        used.heldBodyBytes = 3
        used.outbound.append([4, 5])
        used.status = 200
        used.bodyBytes = 3
        used.shutdownTrailer = [6]
        let start = HTTP2Stream.unansweredStart
        used.reopen(id: 5, state: .idle, receiveWindow: 65_535, sendWindow: 1_000, startedAt: start)
        let new = HTTP2Stream(id: 5, state: .idle, receiveWindow: 65_535, sendWindow: 1_000, startedAt: start)
        XCTAssertEqual(Self.fields(of: used), Self.fields(of: new))
    }

    func testAClosedStreamNothingElseHoldsIsTheNextStream() {
        let harness = HTTP2ClientMachineHarness.connected()
        weak let first = harness.request()
        harness.respond(1, endStream: true)
        let second = harness.request()
        XCTAssertTrue(second != nil && second === first)
        XCTAssertEqual(second?.id, 3)
        harness.respond(3, fields: [("content-length", "2")])
        harness.data(3, [7, 8], endStream: true)
        XCTAssertEqual(harness.ending(of: 1)?.completed, true)
        XCTAssertEqual(harness.ending(of: 3)?.body, [7, 8])
    }

    func testAClosedStreamStillHeldIsNotReused() throws {
        let harness = HTTP2ClientMachineHarness.connected()
        let first = try XCTUnwrap(harness.request())
        harness.respond(1, endStream: true)
        let second = try XCTUnwrap(harness.request())
        XCTAssertFalse(second === first)
        XCTAssertEqual(first.id, 1)
        XCTAssertEqual(first.state, .closed(.ended))
    }

    private static func fields(of stream: HTTP2Stream) -> String {
        "\(stream.id) \(stream.state) \(stream.receiveWindow) \(stream.sendWindow) \(stream.unacknowledgedBytes) "
            + "\(stream.requestHead == nil) \(stream.body) \(String(describing: stream.declaredContentLength)) \(stream.bodyStartedAt) "
            + "\(stream.heldBodyBytes) \(stream.request == nil) \(stream.exchange == nil) \(stream.outbound.count) \(stream.outbound.isWaiting) "
            + "\(stream.outbound.stall == nil) \(stream.startedAt) \(stream.handlerSubscription == nil) \(stream.bodySubscription == nil) "
            + "\(stream.status) \(stream.bodyBytes) \(String(describing: stream.shutdownTrailer)) \(stream.serverSpan == nil)"
    }
}

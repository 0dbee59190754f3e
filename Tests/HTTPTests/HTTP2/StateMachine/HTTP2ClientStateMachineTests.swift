// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

/// The client role of the connection state machine, frames alone: what it sends, how it reads a
/// response, and the rules that hold a hostile upstream to the same limits as a hostile client.
final class HTTP2ClientStateMachineTests: XCTestCase {
    // MARK: - Preface, SETTINGS, streams

    func testTheClientSendsThePrefaceThenSettingsWithPushOff() {
        let harness = HTTP2ClientMachineHarness()
        var bytes: [UInt8] = []
        harness.machine.swapOutput(&bytes)
        XCTAssertTrue(bytes.starts(with: HTTP2ConnectionStateMachine.preface))
        var decoder = HTTP2FrameDecoder(maxFrameSize: 16_384)
        decoder.append(bytes.dropFirst(HTTP2ConnectionStateMachine.preface.count).map { $0 })
        guard case .settings(let settings)? = (try? decoder.next())??.payload else { return XCTFail("no SETTINGS first") }
        XCTAssertTrue(settings.contains(HTTP2Setting(.enablePush, 0)))
    }

    func testRequestsOpenOddStreamsInOrderEachEndingItsStream() {
        let harness = HTTP2ClientMachineHarness.connected()
        XCTAssertEqual([harness.request(), harness.request(), harness.request()].map { $0?.id }, [1, 3, 5])
        let frames = harness.output()
        XCTAssertEqual(frames.filter { $0.endStream }.map(\.streamID), [1, 3, 5])
        let fields = harness.requestFields(in: frames, of: 1) ?? []
        XCTAssertEqual(fields.first?.name, ":method")
        XCTAssertEqual(fields.first { $0.name == ":path" }?.value, "/users")
    }

    func testAResponseHeadAndItsDataCompleteTheStream() {
        let harness = HTTP2ClientMachineHarness.connected()
        harness.request()
        harness.respond(1, fields: [("content-length", "5"), ("etag", "\"v1\"")])
        harness.data(1, Array("hel".utf8))
        harness.data(1, Array("lo".utf8), endStream: true)
        XCTAssertEqual(harness.heads[1]?.status, 200)
        XCTAssertEqual(harness.heads[1]?.fields.first { $0.name == "etag" }?.value, "\"v1\"")
        XCTAssertEqual(harness.ending(of: 1)?.completed, true)
        XCTAssertEqual(harness.ending(of: 1)?.body, Array("hello".utf8))
        XCTAssertTrue(harness.machine.streams.isEmpty)
    }

    func testAnInterimResponseIsSkippedForTheFinalOne() {
        let harness = HTTP2ClientMachineHarness.connected()
        harness.request()
        harness.respond(1, status: "103", fields: [("link", "</a.css>; rel=preload")])
        XCTAssertNil(harness.heads[1])
        harness.respond(1, status: "304", endStream: true)
        XCTAssertEqual(harness.heads[1]?.status, 304)
        XCTAssertEqual(harness.ending(of: 1)?.completed, true)
    }

    func testTrailersAreIgnoredAndEndTheResponse() {
        let harness = HTTP2ClientMachineHarness.connected()
        harness.request()
        harness.respond(1)
        harness.data(1, Array("body".utf8))
        harness.send(HTTP2Frame(streamID: 1, flags: [.endHeaders, .endStream], payload: .headers(fragment: harness.block([("x-checksum", "1")]), dependsOn: nil)))
        XCTAssertEqual(harness.ending(of: 1)?.completed, true)
        XCTAssertEqual(harness.ending(of: 1)?.body, Array("body".utf8))
        XCTAssertFalse(harness.heads[1]?.fields.contains { $0.name == "x-checksum" } ?? true)
    }

    // MARK: - Malformed responses (§8.1.1, §8.3.2)

    func testABodyShorterThanItsContentLengthResetsTheStreamUnanswered() {
        let harness = HTTP2ClientMachineHarness.connected()
        harness.request()
        _ = harness.output()
        harness.respond(1, fields: [("content-length", "100")])
        harness.data(1, Array("0123456789".utf8), endStream: true)
        XCTAssertEqual(harness.output().reset(of: 1), .protocolError)
        XCTAssertEqual(harness.ending(of: 1)?.completed, false)
    }

    func testABodyLongerThanItsContentLengthResetsTheStream() {
        let harness = HTTP2ClientMachineHarness.connected()
        harness.request()
        _ = harness.output()
        harness.respond(1, fields: [("content-length", "2")])
        harness.data(1, Array("abc".utf8))
        XCTAssertEqual(harness.output().reset(of: 1), .protocolError)
        XCTAssertEqual(harness.ending(of: 1)?.completed, false)
    }

    func testAResponseWithoutStatusResetsTheStream() {
        let harness = HTTP2ClientMachineHarness.connected()
        harness.request()
        _ = harness.output()
        harness.send(HTTP2Frame(streamID: 1, flags: [.endHeaders, .endStream], payload: .headers(fragment: harness.block([("etag", "x")]), dependsOn: nil)))
        XCTAssertEqual(harness.output().reset(of: 1), .protocolError)
        XCTAssertEqual(harness.ending(of: 1)?.completed, false)
    }

    func testDataBeforeTheResponseHeadResetsTheStream() {
        let harness = HTTP2ClientMachineHarness.connected()
        harness.request()
        _ = harness.output()
        harness.data(1, [1, 2, 3])
        XCTAssertEqual(harness.output().reset(of: 1), .protocolError)
    }

    func testHeadersOnAStreamTheClientDidNotOpenFailTheConnection() {
        let harness = HTTP2ClientMachineHarness.connected()
        harness.request()
        _ = harness.output()
        harness.respond(3)
        XCTAssertEqual(harness.output().goAway, .protocolError)
        XCTAssertEqual(harness.machine.phase, .failed)
        XCTAssertEqual(harness.ending(of: 1)?.completed, false)
    }

    func testPushPromiseFailsTheConnectionSincePushIsOff() {
        let harness = HTTP2ClientMachineHarness.connected()
        harness.request()
        _ = harness.output()
        harness.send(HTTP2Frame(streamID: 1, flags: .endHeaders, payload: .pushPromise(promisedStreamID: 2, fragment: harness.block([(":method", "GET")]))))
        XCTAssertEqual(harness.output().goAway, .protocolError)
    }

    // MARK: - Hostile upstreams: the server's limits hold for the client too

    func testAHeaderListAboveTheLimitResetsTheStream() {
        var limits = HTTP2ConnectionLimits()
        limits.maxHeaderListSize = 1024
        let harness = HTTP2ClientMachineHarness.connected(limits: limits)
        harness.request()
        _ = harness.output()
        // Each field within the limit (a longer string is an HPACK error, for the whole connection).
        harness.respond(1, fields: (0..<4).map { ("x-big-\($0)", String(repeating: "b", count: 500)) }, endStream: true)
        XCTAssertEqual(harness.output().reset(of: 1), .protocolError)
        XCTAssertEqual(harness.ending(of: 1)?.completed, false)
        XCTAssertFalse(harness.events(.limitExceeded).isEmpty)
    }

    func testAContinuationFloodFailsTheConnection() {
        let harness = HTTP2ClientMachineHarness.connected()
        harness.request()
        _ = harness.output()
        harness.send(HTTP2Frame(streamID: 1, payload: .headers(fragment: [0x88], dependsOn: nil)))
        for _ in 0..<100 { harness.send(HTTP2Frame(streamID: 1, payload: .continuation(fragment: [0x88]))) }
        XCTAssertEqual(harness.output().goAway, .enhanceYourCalm)
        XCTAssertEqual(harness.ending(of: 1)?.completed, false)
    }

    func testDataBeyondTheStreamWindowResetsTheStream() {
        var limits = HTTP2ConnectionLimits()
        limits.initialWindowSize = 1024
        let harness = HTTP2ClientMachineHarness.connected(limits: limits)
        harness.request()
        _ = harness.output()
        harness.respond(1)
        harness.data(1, [UInt8](repeating: 0, count: 1025))
        XCTAssertEqual(harness.output().reset(of: 1), .flowControlError)
    }

    func testDataBeyondTheConnectionWindowFailsTheConnection() {
        var limits = HTTP2ConnectionLimits()
        limits.initialWindowSize = 1 << 20
        limits.connectionWindowSize = 65_535
        limits.maxFrameSize = 1 << 17
        let harness = HTTP2ClientMachineHarness.connected(limits: limits)
        harness.request()
        _ = harness.output()
        harness.respond(1)
        harness.data(1, [UInt8](repeating: 0, count: 65_536))
        XCTAssertEqual(harness.output().goAway, .flowControlError)
    }

    func testConsumedBytesAreReturnedWithWindowUpdates() {
        var limits = HTTP2ConnectionLimits()
        limits.initialWindowSize = 4096
        limits.connectionWindowSize = 8192
        let harness = HTTP2ClientMachineHarness.connected(limits: limits)
        harness.request()
        _ = harness.output()
        harness.respond(1)
        harness.data(1, [UInt8](repeating: 0, count: 2048))
        harness.data(1, [UInt8](repeating: 0, count: 2048))
        let updates = harness.output().compactMap { frame -> (UInt32, UInt32)? in
            guard case .windowUpdate(let increment) = frame.payload else { return nil }
            return (frame.streamID, increment)
        }
        // Half a window at a time, both for the stream and the connection.
        XCTAssertEqual(updates.filter { $0.0 == 1 }.map(\.1), [2048, 2048])
        XCTAssertEqual(updates.filter { $0.0 == 0 }.map(\.1), [4096])
    }

    // MARK: - GOAWAY, resets, cancel

    func testGoAwayClosesTheStreamsAboveItsLastStreamIDAndFinishesTheOthers() {
        let harness = HTTP2ClientMachineHarness.connected()
        for _ in 0..<3 { harness.request() }
        harness.send(HTTP2Frame(streamID: 0, payload: .goAway(lastStreamID: 1, code: .noError, debugData: [])))
        XCTAssertEqual(harness.events(.goAwayReceived).first?.streamID, 1)
        XCTAssertEqual(harness.ended.map(\.id).sorted(), [3, 5])
        XCTAssertFalse(harness.ended.contains { $0.completed })
        XCTAssertFalse(harness.machine.canOpenStream)
        harness.respond(1, endStream: true)
        XCTAssertEqual(harness.ending(of: 1)?.completed, true)
        XCTAssertTrue(harness.closes.contains(.afterFlush))
    }

    func testAStreamResetByTheUpstreamEndsUnansweredAndTheConnectionGoesOn() {
        let harness = HTTP2ClientMachineHarness.connected()
        harness.request()
        harness.request()
        harness.send(HTTP2Frame(streamID: 1, payload: .rstStream(.internalError)))
        XCTAssertEqual(harness.ending(of: 1)?.completed, false)
        XCTAssertEqual(harness.events(.resetReceived).first?.code, .internalError)
        harness.respond(3, endStream: true)
        XCTAssertEqual(harness.ending(of: 3)?.completed, true)
        XCTAssertEqual(harness.machine.phase, .active)
    }

    func testACancelSendsRstStreamCancelAndLaterDataIsIgnored() {
        let harness = HTTP2ClientMachineHarness.connected()
        guard let stream = harness.request() else { return XCTFail("no stream") }
        harness.respond(1)
        _ = harness.output()
        harness.machine.cancel(stream)
        XCTAssertEqual(harness.output().reset(of: 1), .cancel)
        harness.data(1, [1, 2, 3])
        XCTAssertNil(harness.output().goAway)
        XCTAssertEqual(harness.machine.phase, .active)
    }

    func testManyCancelsDoNotSpendTheBudgetForResetsThePeerProvokes() {
        var limits = HTTP2ConnectionLimits()
        limits.controlFrameBurst = 10
        let harness = HTTP2ClientMachineHarness.connected(limits: limits)
        for _ in 0..<50 {
            guard let stream = harness.request() else { return XCTFail("no stream") }
            harness.machine.cancel(stream)
        }
        XCTAssertNil(harness.output().goAway)
        XCTAssertEqual(harness.machine.phase, .active)
    }
}

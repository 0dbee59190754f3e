// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

/// A stream's life as one `HTTP2StreamState`: its moves for a server and for a client (RFC 9113
/// §5.1) on the value alone, then the same life driven by frames through the state machine.
final class HTTP2StreamStateTests: XCTestCase {
    // MARK: - The value: a server's stream

    func testAServerStreamOpensWithItsBodyToComeAndNoAnswer() {
        let state = HTTP2StreamState.openedByPeer
        XCTAssertTrue(state.receivesFromPeer)
        XCTAssertTrue(state.sendsToPeer)
        XCTAssertTrue(state.awaitsPeerBody)
        XCTAssertFalse(state.responded)
        XCTAssertFalse(state.finished)
    }

    func testTheRequestsEndLeavesTheAnswerToSendAndItsEndClosesTheStream() {
        var state = HTTP2StreamState.openedByPeer
        state.peerEnded()
        XCTAssertEqual(state, .halfClosedRemote(.awaitingHead))
        XCTAssertFalse(state.awaitsPeerBody)
        state.respond()
        XCTAssertEqual(state, .halfClosedRemote(.body))
        XCTAssertTrue(state.responded)
        state.localEnded()
        XCTAssertEqual(state, .closed(.ended))
        XCTAssertTrue(state.finished)
    }

    func testAnEndQueuedBehindWaitingDataIsEndingUntilItGoesOut() {
        var state = HTTP2StreamState.halfClosedRemote(.body)
        state.endQueued()
        XCTAssertTrue(state.isEnding)
        XCTAssertFalse(state.finished)
        state.localEnded()
        XCTAssertEqual(state, .closed(.ended))
        XCTAssertFalse(state.isEnding)
    }

    func testAnAnswerBeforeTheBodyEndsDropsTheRestOfTheBody() {
        var state = HTTP2StreamState.openedByPeer
        state.answerEarly(peerEnded: false)
        XCTAssertEqual(state, .open(.discarding, .body))
        XCTAssertTrue(state.discardsInbound)
        XCTAssertTrue(state.responded)
        state.localEnded()
        XCTAssertEqual(state, .halfClosedLocal(.discarding))
        XCTAssertTrue(state.discardsInbound)
        state.peerEnded()
        XCTAssertEqual(state, .closed(.ended))
    }

    func testAnAnswerToTheFrameThatEndedTheRequestLeavesNothingToDrop() {
        var state = HTTP2StreamState.openedByPeer
        state.answerEarly(peerEnded: true)
        XCTAssertEqual(state, .halfClosedRemote(.body))
        XCTAssertFalse(state.discardsInbound)
        XCTAssertFalse(state.receivesFromPeer)
    }

    // MARK: - The value: a client's stream

    func testAClientStreamIsIdleUntilItsHeadersGoOut() {
        var state = HTTP2StreamState.idle
        XCTAssertFalse(state.receivesFromPeer)
        XCTAssertFalse(state.sendsToPeer)
        XCTAssertFalse(state.responded)
        XCTAssertFalse(state.finished)
        state.openLocally(endStream: false)
        XCTAssertEqual(state, .open(.head, .body))
    }

    func testAClientsRequestBodyAndResponseEachEndTheirHalf() {
        var state = HTTP2StreamState.open(.head, .body)
        state.peerHeadArrived()
        XCTAssertEqual(state, .open(.body, .body))
        state.localEnded()
        XCTAssertEqual(state, .halfClosedLocal(.body))
        state.peerEnded()
        XCTAssertEqual(state, .closed(.ended))
    }

    func testAClientRequestWithoutBodyIsHalfClosedLocalAtOnce() {
        var state = HTTP2StreamState.idle
        state.openLocally(endStream: true)
        XCTAssertEqual(state, .halfClosedLocal(.head))
        XCTAssertTrue(state.finished)
        XCTAssertTrue(state.receivesFromPeer)
        state.peerHeadArrived()
        XCTAssertEqual(state, .halfClosedLocal(.body))
    }

    func testAClosedStreamMakesNoFurtherMove() {
        var state = HTTP2StreamState.closed(.resetByPeer)
        state.peerEnded()
        state.localEnded()
        state.respond()
        state.endQueued()
        state.answerEarly(peerEnded: false)
        state.openLocally(endStream: false)
        XCTAssertEqual(state, .closed(.resetByPeer))
        XCTAssertTrue(state.finished)
    }

    // MARK: - The same life through the machine

    func testAStreamLivesOpenThenHalfClosedRemoteThenEndingThenClosed() throws {
        let harness = HTTP2MachineHarness.connected()
        harness.answers = false
        harness.send(HTTP2Frame(streamID: 0, payload: .settings([HTTP2Setting(.initialWindowSize, 0)])))
        harness.request(1, method: "POST", endStream: false)
        let stream = try XCTUnwrap(harness.machine.streams[1])
        XCTAssertEqual(stream.state, .open(.body, .awaitingHead))
        harness.send(HTTP2Frame(streamID: 1, flags: .endStream, payload: .data([1, 2])))
        XCTAssertEqual(stream.state, .halfClosedRemote(.awaitingHead))
        XCTAssertEqual(harness.started, [1])
        harness.machine.sendHeaders(of: stream, fields: [(":status", "200")], endStream: false)
        XCTAssertEqual(stream.state, .halfClosedRemote(.body))
        harness.machine.enqueue(Array("late".utf8), on: stream, end: true)
        XCTAssertEqual(stream.state, .halfClosedRemote(.ending))
        XCTAssertTrue(harness.machine.isEnding(stream))
        harness.send(HTTP2Frame(streamID: 1, payload: .windowUpdate(increment: 100)))
        XCTAssertEqual(stream.state, .closed(.ended))
        XCTAssertTrue(harness.output().ended(1))
        XCTAssertEqual(harness.ended.map(\.completed), [true])
    }

    func testAStreamAnsweredWithoutItsHandlerHoldsNothingMoreAndRunsNoHandler() throws {
        let harness = HTTP2MachineHarness.connected(maxBodyBytes: 4)
        harness.send(HTTP2Frame(streamID: 0, payload: .settings([HTTP2Setting(.initialWindowSize, 0)])))
        harness.request(1, method: "POST", endStream: false)
        let stream = try XCTUnwrap(harness.machine.streams[1])
        harness.send(HTTP2Frame(streamID: 1, payload: .data(Array(repeating: 7, count: 5))))
        // The 413's body waits for a window the peer keeps shut.
        XCTAssertEqual(stream.state, .open(.discarding, .ending))
        XCTAssertEqual(stream.status, 413)
        harness.send(HTTP2Frame(streamID: 1, flags: .endStream, payload: .data(Array(repeating: 7, count: 5))))
        XCTAssertEqual(stream.state, .halfClosedRemote(.ending))
        XCTAssertEqual(harness.machine.bodies.bufferedBytes, 0)
        XCTAssertEqual(harness.started, [])
    }

    func testAPeersResetClosesTheStreamAsResetByPeerWithItsAnswerUnfinished() throws {
        let harness = HTTP2MachineHarness.connected()
        harness.answers = false
        harness.request(1)
        let stream = try XCTUnwrap(harness.machine.streams[1])
        harness.send(HTTP2Frame(streamID: 1, payload: .rstStream(.cancel)))
        XCTAssertEqual(stream.state, .closed(.resetByPeer))
        XCTAssertTrue(stream.finished)
        XCTAssertEqual(harness.ended.map(\.completed), [false])
    }

    func testAnAnswerCompleteBeforeTheRequestEndsResetsTheRestWithNoError() throws {
        let harness = HTTP2MachineHarness.connected(maxBodyBytes: 4)
        harness.request(1, method: "POST", endStream: false)
        let stream = try XCTUnwrap(harness.machine.streams[1])
        harness.send(HTTP2Frame(streamID: 1, payload: .data(Array(repeating: 7, count: 5))))
        XCTAssertEqual(stream.state, .closed(.resetLocally))
        let frames = harness.output()
        XCTAssertEqual(harness.status(in: frames, of: 1), "413")
        XCTAssertEqual(frames.reset(of: 1), .noError)
        XCTAssertEqual(harness.ended.map(\.completed), [true])
    }
}

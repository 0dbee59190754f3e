// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

/// The rules of RFC 9113 the h2spec run and the attack tests check through a socket, checked
/// here on the state machine alone: frames in, frames and owner calls out.
final class HTTP2ConnectionStateMachineTests: XCTestCase {
    // MARK: - Preface and SETTINGS (§3.4, §6.5)

    func testTheServerSendsItsSettingsFirst() {
        let harness = HTTP2MachineHarness()
        let frames = harness.output()
        guard case .settings(let settings)? = frames.first?.payload else { return XCTFail("\(frames)") }
        XCTAssertTrue(settings.contains(HTTP2Setting(.maxConcurrentStreams, 100)))
    }

    func testAPrefaceThatIsNotHTTP2sFailsTheConnection() {
        let harness = HTTP2MachineHarness()
        _ = harness.output()
        harness.feed(bytes: Array("GET / HTTP/1.1\r\n\r\n".utf8))
        XCTAssertEqual(harness.output().goAway, .protocolError)
        XCTAssertEqual(harness.closes, [.lingerAfterFlush])
        XCTAssertEqual(harness.machine.phase, .failed)
    }

    func testThePrefaceMayArriveAByteAtATime() {
        let harness = HTTP2MachineHarness()
        for byte in HTTP2ConnectionStateMachine.preface { harness.feed(bytes: [byte]) }
        XCTAssertEqual(harness.machine.phase, .awaitingSettings)
        harness.send(HTTP2Frame(streamID: 0, payload: .settings([])))
        XCTAssertEqual(harness.machine.phase, .active)
    }

    func testAFirstFrameOtherThanSettingsFailsTheConnection() {
        let harness = HTTP2MachineHarness()
        harness.feed(bytes: HTTP2ConnectionStateMachine.preface)
        harness.send(HTTP2Frame(streamID: 0, payload: .ping(Array(repeating: 0, count: 8))))
        XCTAssertEqual(harness.output().goAway, .protocolError)
    }

    func testSettingsAreAcknowledged() {
        let harness = HTTP2MachineHarness.connected()
        harness.send(HTTP2Frame(streamID: 0, payload: .settings([HTTP2Setting(.maxFrameSize, 32_768)])))
        XCTAssertTrue(harness.output().contains { $0.flags.contains(.ack) && $0.type == .settings })
    }

    func testAnInvalidSettingFailsTheConnection() {
        let harness = HTTP2MachineHarness.connected()
        harness.send(HTTP2Frame(streamID: 0, payload: .settings([HTTP2Setting(.initialWindowSize, 1 << 31)])))
        XCTAssertEqual(harness.output().goAway, .flowControlError)
    }

    func testPingIsAnsweredWithItsOpaqueData() {
        let harness = HTTP2MachineHarness.connected()
        let opaque: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        harness.send(HTTP2Frame(streamID: 0, payload: .ping(opaque)))
        XCTAssertEqual(harness.output(), [HTTP2Frame(streamID: 0, flags: .ack, payload: .ping(opaque))])
    }

    // MARK: - Streams (§5.1)

    func testARequestRunsAtEndStreamAndItsAnswerClosesTheStream() {
        let harness = HTTP2MachineHarness.connected()
        harness.request(1)
        XCTAssertEqual(harness.started, [1])
        let frames = harness.output()
        XCTAssertEqual(harness.status(in: frames, of: 1), "200")
        XCTAssertEqual(frames.body(of: 1), Array("hello".utf8))
        XCTAssertTrue(frames.ended(1))
        XCTAssertTrue(harness.machine.streams.isEmpty)
        XCTAssertEqual(harness.ended.map(\.completed), [true])
    }

    func testHeadersOnAnEvenStreamFailTheConnection() {
        let harness = HTTP2MachineHarness.connected()
        harness.request(2)
        XCTAssertEqual(harness.output().goAway, .protocolError)
    }

    func testAStreamIDBelowTheHighestFailsTheConnection() {
        let harness = HTTP2MachineHarness.connected()
        harness.request(5)
        harness.request(3)
        XCTAssertEqual(harness.output().goAway, .protocolError)
    }

    func testDataOnAnIdleStreamFailsTheConnection() {
        let harness = HTTP2MachineHarness.connected()
        harness.send(HTTP2Frame(streamID: 1, payload: .data([1])))
        XCTAssertEqual(harness.output().goAway, .protocolError)
    }

    func testDataAfterTheRequestsEndStreamIsAStreamError() {
        let harness = HTTP2MachineHarness.connected()
        harness.answers = false
        harness.request(1)
        harness.send(HTTP2Frame(streamID: 1, payload: .data([1])))
        XCTAssertEqual(harness.output().reset(of: 1), .streamClosed)
    }

    func testAFrameOnAStreamBothSidesEndedFailsTheConnection() {
        let harness = HTTP2MachineHarness.connected()
        harness.request(1)
        harness.send(HTTP2Frame(streamID: 1, payload: .data([1])))
        XCTAssertEqual(harness.output().goAway, .streamClosed)
    }

    func testAFrameOnAStreamThePeerResetIsAStreamError() {
        let harness = HTTP2MachineHarness.connected()
        harness.answers = false
        harness.request(1, endStream: false)
        harness.send(HTTP2Frame(streamID: 1, payload: .rstStream(.cancel)))
        harness.send(HTTP2Frame(streamID: 1, payload: .data([1])))
        XCTAssertEqual(harness.output().reset(of: 1), .streamClosed)
        XCTAssertEqual(harness.ended.map(\.completed), [false])
    }

    func testAFrameOnAStreamThisSideResetIsIgnored() {
        let harness = HTTP2MachineHarness.connected()
        harness.request(1, extra: [("Upper", "x")])
        XCTAssertEqual(harness.output().reset(of: 1), .protocolError)
        harness.send(HTTP2Frame(streamID: 1, payload: .data([1])))
        XCTAssertEqual(harness.output(), [])
    }

    func testPushPromiseFromAClientFailsTheConnection() {
        let harness = HTTP2MachineHarness.connected()
        harness.send(HTTP2Frame(streamID: 1, flags: .endHeaders, payload: .pushPromise(promisedStreamID: 2, fragment: [])))
        XCTAssertEqual(harness.output().goAway, .protocolError)
    }

    func testAStreamDependingOnItselfIsAStreamError() {
        let harness = HTTP2MachineHarness.connected()
        harness.send(HTTP2Frame(streamID: 1, payload: .priority(dependsOn: 1)))
        XCTAssertEqual(harness.output().reset(of: 1), .protocolError)
    }

    func testMoreStreamsThanMaxConcurrentStreamsAreRefused() {
        let harness = HTTP2MachineHarness.connected()
        harness.answers = false
        for index in 0..<101 { harness.request(UInt32(2 * index + 1)) }
        let frames = harness.output()
        XCTAssertEqual(frames.reset(of: 201), .refusedStream)
        XCTAssertEqual(frames.filter { $0.type == .rstStream }.count, 1)
        XCTAssertEqual(harness.machine.streams.count, 100)
    }

    // MARK: - Header blocks (§4.3, §6.10)

    func testAHeaderBlockContinuesInContinuationFrames() {
        let harness = HTTP2MachineHarness.connected()
        let block = harness.requestBlock()
        harness.send(
            HTTP2Frame(streamID: 1, flags: .endStream, payload: .headers(fragment: Array(block.prefix(3)), dependsOn: nil)),
            HTTP2Frame(streamID: 1, flags: .endHeaders, payload: .continuation(fragment: Array(block.dropFirst(3)))))
        XCTAssertEqual(harness.started, [1])
    }

    func testAnotherFrameInsideAHeaderBlockFailsTheConnection() {
        let harness = HTTP2MachineHarness.connected()
        harness.send(
            HTTP2Frame(streamID: 1, flags: .endStream, payload: .headers(fragment: Array(harness.requestBlock().prefix(3)), dependsOn: nil)),
            HTTP2Frame(streamID: 0, payload: .ping(Array(repeating: 0, count: 8))))
        XCTAssertEqual(harness.output().goAway, .protocolError)
    }

    func testAContinuationFloodEndsInEnhanceYourCalm() {
        let harness = HTTP2MachineHarness.connected()
        harness.send(HTTP2Frame(streamID: 1, payload: .headers(fragment: [0x82], dependsOn: nil)))
        for _ in 0..<100 { harness.send(HTTP2Frame(streamID: 1, payload: .continuation(fragment: [0x82]))) }
        XCTAssertEqual(harness.output().goAway, .enhanceYourCalm)
        XCTAssertTrue(harness.events(.limitExceeded).contains { $0.reason == "CONTINUATION flood" })
    }

    func testAHeaderListAboveTheLimitIsAnswered431AndTheTableStaysInStep() {
        var limits = HTTP2ConnectionLimits()
        limits.maxHeaderListSize = 1024
        let harness = HTTP2MachineHarness.connected(limits: limits)
        harness.request(1, extra: (0..<30).map { ("x-field-\($0)", String(repeating: "a", count: 50)) })
        harness.request(3)
        let frames = harness.output()
        XCTAssertEqual(harness.status(in: frames, of: 1), "431")
        XCTAssertEqual(harness.status(in: frames, of: 3), "200")
        XCTAssertNil(frames.goAway)
    }

    func testAMalformedRequestIsAStreamError() {
        let harness = HTTP2MachineHarness.connected()
        harness.request(1, extra: [("connection", "keep-alive")])
        XCTAssertEqual(harness.output().reset(of: 1), .protocolError)
        XCTAssertEqual(harness.started, [])
    }

    // MARK: - Request bodies

    func testABodyShorterThanItsContentLengthIsAStreamError() {
        let harness = HTTP2MachineHarness.connected()
        harness.request(1, method: "POST", extra: [("content-length", "3")], endStream: false)
        harness.send(HTTP2Frame(streamID: 1, flags: .endStream, payload: .data([1])))
        XCTAssertEqual(harness.output().reset(of: 1), .protocolError)
    }

    func testABodyLargerThanTheLimitIsAnswered413() {
        let harness = HTTP2MachineHarness.connected(maxBodyBytes: 10)
        harness.request(1, method: "POST", endStream: false)
        harness.send(HTTP2Frame(streamID: 1, payload: .data(Array(repeating: 1, count: 20))))
        let frames = harness.output()
        XCTAssertEqual(harness.status(in: frames, of: 1), "413")
        XCTAssertEqual(frames.reset(of: 1), .noError, "the rest of the body is not wanted")
    }

    func testABodyThatDoesNotArriveInTimeIsAnswered408() {
        let harness = HTTP2MachineHarness.connected()
        harness.request(1, method: "POST", endStream: false)
        harness.now += HTTPTimeouts().body.nanoseconds + 1
        harness.machine.tick(now: harness.now, timeouts: HTTPTimeouts())
        XCTAssertEqual(harness.status(in: harness.output(), of: 1), "408")
        XCTAssertEqual(harness.bodyTimeouts, [1])
    }

    // MARK: - Flow control (§5.2, §6.9)

    func testDataBeyondTheConnectionWindowFailsTheConnection() {
        var limits = HTTP2ConnectionLimits()
        limits.connectionWindowSize = 65_535
        limits.maxFrameSize = 100_000
        let harness = HTTP2MachineHarness.connected(limits: limits)
        harness.request(1, method: "POST", endStream: false)
        harness.send(HTTP2Frame(streamID: 1, payload: .data(Array(repeating: 0, count: 70_000))))
        XCTAssertEqual(harness.output().goAway, .flowControlError)
    }

    func testDataBeyondTheStreamWindowIsAStreamError() {
        var limits = HTTP2ConnectionLimits()
        limits.initialWindowSize = 100
        let harness = HTTP2MachineHarness.connected(limits: limits)
        harness.request(1, method: "POST", endStream: false)
        harness.send(HTTP2Frame(streamID: 1, payload: .data(Array(repeating: 0, count: 200))))
        let frames = harness.output()
        XCTAssertEqual(frames.reset(of: 1), .flowControlError)
        XCTAssertNil(frames.goAway)
    }

    func testAWindowUpdateOfZeroIsAnErrorOnTheConnectionAndOnAStream() {
        let harness = HTTP2MachineHarness.connected()
        harness.answers = false
        harness.request(1)
        harness.send(HTTP2Frame(streamID: 1, payload: .windowUpdate(increment: 0)))
        XCTAssertEqual(harness.output().reset(of: 1), .protocolError)
        harness.send(HTTP2Frame(streamID: 0, payload: .windowUpdate(increment: 0)))
        XCTAssertEqual(harness.output().goAway, .protocolError)
    }

    func testAWindowAboveTwoToTheThirtyOneFailsTheConnection() {
        let harness = HTTP2MachineHarness.connected()
        harness.send(HTTP2Frame(streamID: 0, payload: .windowUpdate(increment: UInt32(Int32.max))))
        XCTAssertEqual(harness.output().goAway, .flowControlError)
    }

    func testAResponseWaitsForWindowAndGoesOnWhenItOpens() {
        let harness = HTTP2MachineHarness.connected()
        harness.send(HTTP2Frame(streamID: 0, payload: .settings([HTTP2Setting(.initialWindowSize, 10)])))
        harness.answerBody = Array(repeating: 7, count: 25)
        harness.request(1)
        var frames = harness.output()
        XCTAssertEqual(frames.body(of: 1).count, 10)
        XCTAssertFalse(frames.ended(1))
        XCTAssertEqual(harness.events(.flowControlStall).count, 1)
        harness.send(HTTP2Frame(streamID: 1, payload: .windowUpdate(increment: 1000)))
        frames = harness.output()
        XCTAssertEqual(frames.body(of: 1).count, 15)
        XCTAssertTrue(frames.ended(1))
    }

    func testAWindowThatNeverOpensResetsOnlyItsStream() {
        let harness = HTTP2MachineHarness.connected()
        harness.send(HTTP2Frame(streamID: 0, payload: .settings([HTTP2Setting(.initialWindowSize, 0)])))
        harness.request(1)
        harness.answerBody = []
        harness.request(3)
        harness.now += HTTPTimeouts().write.nanoseconds + 1
        harness.machine.tick(now: harness.now, timeouts: HTTPTimeouts())
        let frames = harness.output()
        XCTAssertEqual(harness.status(in: frames, of: 3), "200", "the other stream is answered while the first waits")
        XCTAssertEqual(frames.reset(of: 1), .cancel)
        XCTAssertNil(frames.goAway)
        XCTAssertTrue(harness.events(.limitExceeded).contains { $0.reason?.contains("flow-control window shut") == true })
    }

    func testDataWaitsWhileTheSocketHoldsTooMuch() {
        let harness = HTTP2MachineHarness.connected()
        harness.socketBacklog = 1 << 20
        harness.request(1)
        XCTAssertEqual(harness.output().body(of: 1), [])
        harness.socketBacklog = 0
        harness.machine.flushWaiting()
        XCTAssertEqual(harness.output().body(of: 1), Array("hello".utf8))
    }

    // MARK: - Abuse (the attack tests)

    func testRapidResetEndsInEnhanceYourCalm() {
        let harness = HTTP2MachineHarness.connected()
        harness.answers = false
        var id: UInt32 = 1
        while harness.machine.phase != .failed && id < 2000 {
            harness.request(id)
            harness.send(HTTP2Frame(streamID: id, payload: .rstStream(.cancel)))
            id += 2
        }
        XCTAssertEqual(harness.output().goAway, .enhanceYourCalm)
        XCTAssertLessThan(id, 2 * 201 + 3)
    }

    func testControlFrameFloodsEndInEnhanceYourCalm() {
        let floods: [(String, HTTP2Frame)] = [
            ("PING", HTTP2Frame(streamID: 0, payload: .ping(Array(repeating: 0, count: 8)))),
            ("SETTINGS", HTTP2Frame(streamID: 0, payload: .settings([]))),
            ("unknown frame", HTTP2Frame(streamID: 0, payload: .unknown(type: 0x20, payload: []))),
            ("PRIORITY", HTTP2Frame(streamID: 3, payload: .priority(dependsOn: 0))),
        ]
        for (name, frame) in floods {
            let harness = HTTP2MachineHarness.connected()
            for _ in 0..<1001 { harness.send(frame) }
            XCTAssertEqual(harness.output().goAway, .enhanceYourCalm, name)
            XCTAssertTrue(harness.events(.limitExceeded).contains { $0.reason == "\(name) flood" }, name)
        }
    }

    func testTinyWindowUpdatesEndInEnhanceYourCalm() {
        let harness = HTTP2MachineHarness.connected()
        for _ in 0..<1001 { harness.send(HTTP2Frame(streamID: 0, payload: .windowUpdate(increment: 1))) }
        XCTAssertEqual(harness.output().goAway, .enhanceYourCalm)
    }

    func testAPeerThatDoesNotReadItsPingAnswersIsDropped() {
        let harness = HTTP2MachineHarness.connected()
        harness.socketBacklog = 3 << 20
        harness.send(HTTP2Frame(streamID: 0, payload: .ping(Array(repeating: 0, count: 8))))
        XCTAssertEqual(harness.output().goAway, .enhanceYourCalm)
    }

    func testProvokedResetsEndInEnhanceYourCalm() {
        let harness = HTTP2MachineHarness.connected()
        var id: UInt32 = 1
        while harness.machine.phase != .failed && id < 4000 {
            harness.request(id, extra: [("Upper", "x")])
            id += 2
        }
        XCTAssertEqual(harness.output().goAway, .enhanceYourCalm)
        XCTAssertTrue(harness.events(.limitExceeded).contains { $0.reason == "reset flood" })
    }

    // MARK: - GOAWAY, shutdown, timeouts, close

    func testAPeersGoAwayClosesOnceItsStreamsAreDone() {
        let harness = HTTP2MachineHarness.connected()
        harness.answers = false
        harness.request(1)
        harness.send(HTTP2Frame(streamID: 0, payload: .goAway(lastStreamID: 0, code: .noError, debugData: [])))
        XCTAssertEqual(harness.machine.phase, .draining(goAwaySent: nil))
        XCTAssertEqual(harness.closes, [])
        harness.send(HTTP2Frame(streamID: 1, payload: .rstStream(.cancel)))
        XCTAssertEqual(harness.output().goAway, .noError)
        XCTAssertEqual(harness.closes, [.afterFlush])
    }

    func testAShutdownNamesTheLastStreamAndStartsNoNewOne() {
        let harness = HTTP2MachineHarness.connected()
        harness.answers = false
        harness.request(1)
        harness.machine.beginShutdown()
        let frames = harness.output()
        XCTAssertTrue(frames.contains { $0.payload == .goAway(lastStreamID: 1, code: .noError, debugData: []) })
        harness.request(3)
        XCTAssertEqual(harness.started, [1])
        XCTAssertEqual(harness.closes, [])
        harness.send(HTTP2Frame(streamID: 1, payload: .rstStream(.cancel)))
        XCTAssertEqual(harness.closes, [.afterFlush])
        XCTAssertEqual(harness.machine.phase, .closing)
    }

    func testAnIdleConnectionClosesWithGoAway() {
        let harness = HTTP2MachineHarness.connected()
        harness.now += HTTPTimeouts().idle.nanoseconds + 1
        harness.machine.tick(now: harness.now, timeouts: HTTPTimeouts())
        XCTAssertEqual(harness.output().goAway, .noError)
        XCTAssertEqual(harness.closes, [.afterFlush])
    }

    func testAPrefaceThatDoesNotComeInTimeClosesTheConnection() {
        let harness = HTTP2MachineHarness()
        harness.now += HTTPTimeouts().header.nanoseconds + 1
        harness.machine.tick(now: harness.now, timeouts: HTTPTimeouts())
        XCTAssertEqual(harness.closes, [.now("no HTTP/2 preface in time")])
    }

    func testNothingIsReadOrSentAfterAConnectionError() {
        let harness = HTTP2MachineHarness.connected()
        harness.request(2)
        _ = harness.output()
        harness.request(3)
        harness.send(HTTP2Frame(streamID: 0, payload: .ping(Array(repeating: 0, count: 8))))
        XCTAssertEqual(harness.output(), [])
        XCTAssertEqual(harness.started, [])
    }

    func testTheSocketsCloseEndsEveryStreamUnfinished() {
        let harness = HTTP2MachineHarness.connected()
        harness.answers = false
        harness.request(1)
        harness.request(3)
        harness.machine.closed()
        XCTAssertEqual(harness.ended.map(\.id).sorted(), [1, 3])
        XCTAssertEqual(harness.ended.map(\.completed), [false, false])
        XCTAssertEqual(harness.machine.phase, .closed)
    }
}

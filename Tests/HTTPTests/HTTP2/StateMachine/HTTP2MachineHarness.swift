// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

/// An `HTTP2ConnectionStateMachine` with no socket: the test plays the client, feeding frames and
/// reading the frames the machine collects, and this owner records what the machine asks of it.
/// Started requests are answered at once with `answerBody` unless `answers` is false.
final class HTTP2MachineHarness: HTTP2ConnectionOwner {
    enum Close: Equatable {
        case afterFlush, lingerAfterFlush, now(String)
    }

    var machine: HTTP2ConnectionStateMachine!
    var now: UInt64 = 1_000_000_000
    var socketBacklog = 0
    var answers = true
    var answerBody: [UInt8] = Array("hello".utf8)
    private(set) var started: [UInt32] = []
    private(set) var ended: [(id: UInt32, completed: Bool)] = []
    private(set) var closes: [Close] = []
    private(set) var events: [HTTP2Event] = []
    private(set) var bodyTimeouts: [UInt32] = []
    private var encoder = HPACKEncoder()
    private var decoder = HPACKDecoder()
    private var frameDecoder = HTTP2FrameDecoder(maxFrameSize: 1 << 24 - 1)

    init(limits: HTTP2ConnectionLimits = HTTP2ConnectionLimits(), maxBodyBytes: Int = 1 << 20) {
        machine = HTTP2ConnectionStateMachine(owner: self, limits: limits, maxBodyBytes: maxBodyBytes) { [unowned self] in now }
        machine.start()
    }

    /// The preface and an empty SETTINGS, the server's first frames read and dropped.
    static func connected(limits: HTTP2ConnectionLimits = HTTP2ConnectionLimits(), maxBodyBytes: Int = 1 << 20) -> HTTP2MachineHarness {
        let harness = HTTP2MachineHarness(limits: limits, maxBodyBytes: maxBodyBytes)
        harness.feed(bytes: HTTP2ConnectionStateMachine.preface)
        harness.send(HTTP2Frame(streamID: 0, payload: .settings([])))
        _ = harness.output()
        return harness
    }

    // MARK: - The client's side

    func feed(bytes: [UInt8]) {
        bytes.withUnsafeBytes { machine.receive($0) }
    }

    /// Frames handed to the machine whole (`receiveAsWholeFrames`, the slow twin), not read where they lie.
    var deliversFrames = false
    private lazy var wholeFrames = HTTP2FrameDecoder(maxFrameSize: machine.limits.maxFrameSize)

    func send(_ frames: HTTP2Frame...) {
        var bytes: [UInt8] = []
        for frame in frames { HTTP2FrameEncoder.append(frame, into: &bytes) }
        if deliversFrames { return machine.receiveAsWholeFrames(bytes, cutBy: &wholeFrames) }
        feed(bytes: bytes)
    }

    func requestBlock(path: String = "/hello", method: String = "GET", extra: [(name: String, value: String)] = []) -> [UInt8] {
        var block: [UInt8] = []
        encoder.encode([(":method", method), (":scheme", "http"), (":authority", "localhost"), (":path", path)] + extra, into: &block)
        return block
    }

    func request(_ id: UInt32, path: String = "/hello", method: String = "GET", extra: [(name: String, value: String)] = [], endStream: Bool = true) {
        let flags: HTTP2Flags = endStream ? [.endHeaders, .endStream] : [.endHeaders]
        send(HTTP2Frame(streamID: id, flags: flags, payload: .headers(fragment: requestBlock(path: path, method: method, extra: extra), dependsOn: nil)))
    }

    /// The frames the machine collected since the last call.
    func output() -> [HTTP2Frame] {
        var bytes: [UInt8] = []
        machine.swapOutput(&bytes)
        frameDecoder.append(bytes)
        var frames: [HTTP2Frame] = []
        while let frame = try? frameDecoder.next() { frames.append(frame) }
        return frames
    }

    func status(in frames: [HTTP2Frame], of id: UInt32) -> String? {
        for frame in frames where frame.streamID == id {
            guard case .headers(let fragment, _) = frame.payload, let block = try? decoder.decode(fragment) else { continue }
            return block.fields.first { $0.name == ":status" }?.value
        }
        return nil
    }

    // MARK: - HTTP2ConnectionOwner

    func startRequest(_ stream: HTTP2Stream) {
        started.append(stream.id)
        guard answers else { return }
        stream.markResponded()
        machine.sendHeaders(of: stream, fields: [(":status", "200")], endStream: answerBody.isEmpty)
        if !answerBody.isEmpty { machine.enqueue(answerBody, on: stream, end: true) }
    }

    func answerWithoutHandler(_ stream: HTTP2Stream, status: HTTPStatus, detail: String) {
        machine.sendHeaders(of: stream, fields: [(":status", String(status.code))], endStream: false)
        machine.enqueue(Array(detail.utf8), on: stream, end: true)
    }

    func answerEnded(_ stream: HTTP2Stream, completed: Bool) { ended.append((stream.id, completed)) }
    func endForShutdown(_ stream: HTTP2Stream) { machine.enqueue([], on: stream, end: true) }
    func receivedResponseHead(_ stream: HTTP2Stream, _ head: consuming HTTP2ResponseHead) { XCTFail("a server's machine received a response head on stream \(stream.id)") }
    func bodyTimedOut(_ stream: HTTP2Stream, detail: String) { bodyTimeouts.append(stream.id) }

    func report(_ kind: HTTP2Event.Kind, streamID: UInt32, code: HTTP2ErrorCode?, reason: String?) {
        events.append(HTTP2Event(kind: kind, remoteAddress: "test", streamID: streamID, code: code, reason: reason))
    }

    func close(_ how: HTTP2ConnectionClose) {
        switch how {
        case .afterFlush: closes.append(.afterFlush)
        case .lingerAfterFlush: closes.append(.lingerAfterFlush)
        case .now(let failure): closes.append(.now(failure))
        }
    }

    func events(_ kind: HTTP2Event.Kind) -> [HTTP2Event] { events.filter { $0.kind == kind } }
}

extension [HTTP2Frame] {
    /// The GOAWAY's error code, if one was sent.
    var goAway: HTTP2ErrorCode? {
        for frame in self { if case .goAway(_, let code, _) = frame.payload { return code } }
        return nil
    }

    func reset(of id: UInt32) -> HTTP2ErrorCode? {
        for frame in self where frame.streamID == id { if case .rstStream(let code) = frame.payload { return code } }
        return nil
    }

    /// DATA bytes sent on stream `id`.
    func body(of id: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        for frame in self where frame.streamID == id { if case .data(let data) = frame.payload { bytes += data } }
        return bytes
    }

    func ended(_ id: UInt32) -> Bool { contains { $0.streamID == id && $0.endStream } }
}

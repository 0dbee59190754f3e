// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

/// A client-role `HTTP2ConnectionStateMachine` with no socket: the test plays the upstream server,
/// feeding frames and reading the frames the machine collects; this owner records the responses.
final class HTTP2ClientMachineHarness: HTTP2ConnectionOwner {
    var machine: HTTP2ConnectionStateMachine!
    var now: UInt64 = 1_000_000_000
    var socketBacklog = 0
    private(set) var heads: [UInt32: HTTP2ResponseHead] = [:]
    private(set) var ended: [(id: UInt32, completed: Bool, body: [UInt8])] = []
    private(set) var closes: [HTTP2ConnectionClose] = []
    private(set) var events: [HTTP2Event] = []
    private var encoder = HPACKEncoder()
    private var decoder = HPACKDecoder()
    private var frameDecoder = HTTP2FrameDecoder(maxFrameSize: 1 << 24 - 1)
    private var prefaceSeen = false

    init(limits: HTTP2ConnectionLimits = HTTP2ConnectionLimits(), maxBodyBytes: Int = 1 << 20) {
        machine = HTTP2ConnectionStateMachine(owner: self, role: .client, limits: limits, maxBodyBytes: maxBodyBytes) { [unowned self] in now }
        machine.start()
    }

    /// Started, the server's SETTINGS received, the client's first frames read and dropped.
    static func connected(limits: HTTP2ConnectionLimits = HTTP2ConnectionLimits(), maxBodyBytes: Int = 1 << 20,
                          serverSettings: [HTTP2Setting] = []) -> HTTP2ClientMachineHarness {
        let harness = HTTP2ClientMachineHarness(limits: limits, maxBodyBytes: maxBodyBytes)
        harness.send(HTTP2Frame(streamID: 0, payload: .settings(serverSettings)))
        _ = harness.output()
        return harness
    }

    // MARK: - The client's requests

    @discardableResult
    func request(path: String = "/users") -> HTTP2Stream? {
        machine.openStream(fields: [(":method", "GET"), (":scheme", "https"), (":authority", "api.example"), (":path", path)], endStream: true)
    }

    // MARK: - The server's side

    /// Frames handed to the machine whole (`receiveAsWholeFrames`, the slow twin), not read where they lie.
    var deliversFrames = false
    private lazy var wholeFrames = HTTP2FrameDecoder(maxFrameSize: machine.limits.maxFrameSize)

    func send(_ frames: HTTP2Frame...) {
        var bytes: [UInt8] = []
        for frame in frames { HTTP2FrameEncoder.append(frame, into: &bytes) }
        if deliversFrames { return machine.receiveAsWholeFrames(bytes, cutBy: &wholeFrames) }
        bytes.withUnsafeBytes { machine.receive($0) }
    }

    func block(_ fields: [(name: String, value: String)]) -> [UInt8] {
        var block: [UInt8] = []
        encoder.encode(fields, into: &block)
        return block
    }

    func respond(_ id: UInt32, status: String = "200", fields: [(name: String, value: String)] = [], endStream: Bool = false) {
        let flags: HTTP2Flags = endStream ? [.endHeaders, .endStream] : [.endHeaders]
        send(HTTP2Frame(streamID: id, flags: flags, payload: .headers(fragment: block([(":status", status)] + fields), dependsOn: nil)))
    }

    func data(_ id: UInt32, _ bytes: [UInt8], endStream: Bool = false) {
        send(HTTP2Frame(streamID: id, flags: endStream ? .endStream : [], payload: .data(bytes)))
    }

    /// The frames the machine collected since the last call (the client's preface skipped).
    func output() -> [HTTP2Frame] {
        var bytes: [UInt8] = []
        machine.swapOutput(&bytes)
        if !prefaceSeen, bytes.starts(with: HTTP2ConnectionStateMachine.preface) {
            bytes.removeFirst(HTTP2ConnectionStateMachine.preface.count)
            prefaceSeen = true
        }
        frameDecoder.append(bytes)
        var frames: [HTTP2Frame] = []
        while let frame = try? frameDecoder.next() { frames.append(frame) }
        return frames
    }

    /// The request header block the client sent on stream `id`.
    func requestFields(in frames: [HTTP2Frame], of id: UInt32) -> [(name: String, value: String)]? {
        for frame in frames where frame.streamID == id {
            guard case .headers(let fragment, _) = frame.payload else { continue }
            return try? decoder.decode(fragment).fields
        }
        return nil
    }

    // MARK: - HTTP2ConnectionOwner

    func receivedResponseHead(_ stream: HTTP2Stream, _ head: consuming HTTP2ResponseHead) {
        heads[stream.id] = head
    }

    func answerEnded(_ stream: HTTP2Stream, completed: Bool) { ended.append((stream.id, completed, stream.body)) }

    func report(_ kind: HTTP2Event.Kind, streamID: UInt32, code: HTTP2ErrorCode?, reason: String?) {
        events.append(HTTP2Event(kind: kind, remoteAddress: "test", streamID: streamID, code: code, reason: reason))
    }

    func close(_ how: HTTP2ConnectionClose) { closes.append(how) }
    func startRequest(_ stream: HTTP2Stream) { XCTFail("a client's machine started a request on stream \(stream.id)") }
    func answerWithoutHandler(_ stream: HTTP2Stream, status: HTTPStatus, detail: String) { XCTFail("a client's machine answered stream \(stream.id)") }
    func endForShutdown(_ stream: HTTP2Stream) {}
    func bodyTimedOut(_ stream: HTTP2Stream, detail: String) {}

    func events(_ kind: HTTP2Event.Kind) -> [HTTP2Event] { events.filter { $0.kind == kind } }
    func ending(of id: UInt32) -> (completed: Bool, body: [UInt8])? { ended.first { $0.id == id }.map { ($0.completed, $0.body) } }
}

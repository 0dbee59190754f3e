// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

// libFuzzer entry for the HTTP/2 connection state machine in the client role (built by
// scripts/fuzz-http2-client): the input is what an upstream sends after our preface, to a
// connection that opened a few GET streams, as HTTP2ClientConnection drives it (HTTP/2 to a
// hostile upstream, issue 38).
//
// The first input byte says how many streams open (1 to 8) before the peer's bytes arrive; the
// rest is the peer's bytes, fed three ways:
//   1. whole, and 2. in pieces whose sizes come from the input: both must give the same calls to
//      the owner and the same frames out (a connection must not depend on how bytes arrive);
//   3. in pieces with the caller's own moves between them (a cancel, a PING, one more stream),
//      as a pipeline's dispose or the liveness timer makes them.
// In every run, what the client sends must be frames it may send: HEADERS only on streams it
// opened, no DATA (its requests are GETs), connection frames on stream 0. Each stream gets at most
// one response head and ends at most once, a completed one only after its head; a cancelled one
// hears nothing more; no body beyond the limit; a head read from the block's bytes says what the
// String head (its slow twin) says of the same fields. Any breach traps, which libFuzzer records as a
// crash. The clock is fixed, so the abuse budgets cannot tell the runs apart.

@testable import HTTP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP2Client(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let opening = Int(data[0] % 8) + 1
    let peer = UnsafeRawBufferPointer(start: data + 1, count: size - 1)

    let whole = ClientRun(streams: opening)
    whole.machine.receive(peer)
    whole.finish()

    let split = ClientRun(streams: opening)
    forEachPiece(of: peer) { split.machine.receive($0) }
    split.finish()
    precondition(whole.log == split.log, "split feeding changed the owner's calls:\n\(whole.log)\nvs\n\(split.log)")
    precondition(whole.sent == split.sent, "split feeding changed the frames sent:\n\(whole.sent)\nvs\n\(split.sent)")

    let moved = ClientRun(streams: opening)
    var move = 0
    forEachPiece(of: peer) { piece in
        moved.machine.receive(piece)
        moved.callerMove(move, hint: piece.first ?? 0)
        move += 1
    }
    moved.finish()
    return 0
}

/// One client connection under test: the machine, its owner's record of what it was asked, and
/// the frames it sent, each checked as it leaves.
private final class ClientRun: HTTP2ConnectionOwner {
    var machine: HTTP2ConnectionStateMachine!
    private var opened: [UInt32: HTTP2Stream] = [:]
    private var heads: Set<UInt32> = []
    private var ended: Set<UInt32> = []
    private var cancelled: Set<UInt32> = []
    private(set) var log: [String] = []
    private(set) var sent: [String] = []
    private var outbound = HTTP2FrameDecoder(maxFrameSize: 1 << 24)
    private var prefaceSeen = false
    private var closeAsked = false
    private static let settings = HTTP2ClientSettings(mode: .priorKnowledge)

    init(streams: Int) {
        machine = HTTP2ConnectionStateMachine(
            owner: self, role: .client, limits: Self.settings.limits, maxBodyBytes: Self.settings.maxResponseBodyBytes,
            clock: { 1_000_000_000 })
        machine.start()
        for index in 0..<streams { open(index) }
        collectOutput()
    }

    func open(_ index: Int) {
        let fields = [(name: ":method", value: "GET"), (name: ":scheme", value: "https"),
                      (name: ":authority", value: "upstream.test"), (name: ":path", value: "/avatars/\(index)")]
        guard let stream = machine.openStream(fields: fields, endStream: true) else { return }
        precondition(stream.id % 2 == 1 && opened[stream.id] == nil, "a client stream id must be new and odd: \(stream.id)")
        opened[stream.id] = stream
    }

    /// Between two pieces: what the caller of `HTTP2ClientConnection` may do at any time.
    func callerMove(_ move: Int, hint: UInt8) {
        switch hint % 4 {
        case 0:
            let ids = opened.keys.sorted()
            if !ids.isEmpty, let stream = opened[ids[move % ids.count]] {
                machine.cancel(stream)
                cancelled.insert(stream.id)
            }
        case 1: machine.ping(UInt64(move))
        case 2: open(opened.count)
        default: break
        }
        collectOutput()
    }

    func finish() {
        collectOutput()
        machine.closed()
        collectOutput()
    }

    /// The frames the machine wrote since the last call, decoded and checked against what a client may send.
    private func collectOutput() {
        var bytes: [UInt8] = []
        machine.swapOutput(&bytes)
        guard !bytes.isEmpty else { return }
        var rest = bytes[...]
        if !prefaceSeen {
            let preface = HTTP2ConnectionStateMachine.preface
            precondition(rest.starts(with: preface), "a client's first bytes must be the connection preface")
            rest = rest.dropFirst(preface.count)
            prefaceSeen = true
        }
        outbound.append(Array(rest))
        while true {
            let frame: HTTP2Frame?
            do { frame = try outbound.next() } catch { preconditionFailure("the client wrote a frame it cannot read back: \(error)") }
            guard let frame else { return }
            check(frame)
            sent.append("\(frame.type.rawValue) \(frame.streamID) \(frame.flags.rawValue) \(frame.payload)")
        }
    }

    private func check(_ frame: HTTP2Frame) {
        switch frame.payload {
        case .headers, .continuation:
            precondition(opened[frame.streamID] != nil, "HEADERS on stream \(frame.streamID), which this client did not open")
        case .data:
            preconditionFailure("DATA on stream \(frame.streamID): this client's requests are GETs without a body")
        case .pushPromise:
            preconditionFailure("a client never sends PUSH_PROMISE")
        case .settings, .ping, .goAway:
            precondition(frame.streamID == 0, "a connection frame on stream \(frame.streamID)")
        case .rstStream, .windowUpdate, .priority, .unknown:
            break
        }
    }

    // MARK: - HTTP2ConnectionOwner

    var socketBacklog: Int { 0 }

    func receivedResponseHead(_ stream: HTTP2Stream, _ head: consuming HTTP2ResponseHead) {
        let status = head.status
        precondition(opened[stream.id] === stream, "a response head for stream \(stream.id), which this client did not open")
        precondition(!cancelled.contains(stream.id), "a response head for stream \(stream.id) after the caller cancelled it")
        precondition(heads.insert(stream.id).inserted, "a second response head for stream \(stream.id)")
        precondition((200...599).contains(status), "a final response head with status \(status)")
        // The head read from the block's bytes (the fast path) against the String head (its slow twin) of the same fields.
        let fields = head.fields.map { (name: $0.name, value: $0.value) }
        let twin = try? HTTP2ResponseHead(validating: [(":status", String(status))] + fields)
        precondition(twin != nil, "the String head refused a head the bytes' head accepted")
        precondition(twin!.status == status && twin!.received == head.received && twin!.contentLength == head.contentLength
                     && twin!.gzipCoded == head.gzipCoded && twin!.rateLimit == head.rateLimit, "the bytes' head and the String head differ")
        log.append("head \(stream.id) \(status) \(head.fields.count)")
    }

    func answerEnded(_ stream: HTTP2Stream, completed: Bool) {
        precondition(opened[stream.id] === stream, "an end for stream \(stream.id), which this client did not open")
        precondition(!cancelled.contains(stream.id), "an end for stream \(stream.id) after the caller cancelled it")
        precondition(ended.insert(stream.id).inserted, "stream \(stream.id) ended twice")
        precondition(!completed || heads.contains(stream.id), "stream \(stream.id) completed without a response head")
        precondition(stream.body.count <= Self.settings.maxResponseBodyBytes, "a body above the limit on stream \(stream.id)")
        log.append("ended \(stream.id) \(completed) \(stream.body.count)")
    }

    func report(_ kind: HTTP2Event.Kind, streamID: UInt32, code: HTTP2ErrorCode?, reason: String?) {
        log.append("report \(kind) \(streamID) \(code.map { "\($0)" } ?? "-")")
    }

    func close(_ how: HTTP2ConnectionClose) {
        log.append("close \(how)")
        closeAsked = true
    }

    // The server role's half: a client's machine must never ask for it.
    func startRequest(_ stream: HTTP2Stream) { preconditionFailure("a client was asked to run a request handler") }
    func answerWithoutHandler(_ stream: HTTP2Stream, status: HTTPStatus, detail: String) {
        preconditionFailure("a client was asked to answer stream \(stream.id) with \(status)")
    }
    func endForShutdown(_ stream: HTTP2Stream) {}
    func bodyTimedOut(_ stream: HTTP2Stream, detail: String) {
        preconditionFailure("a client's clock-free run timed out a body on stream \(stream.id)")
    }
}

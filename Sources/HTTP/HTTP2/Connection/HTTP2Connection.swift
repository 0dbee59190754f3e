// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Dispatch
import NetCore
import Streams

/// The HTTP/2 side of a `ServerConnection`: feeds what it reads to its
/// `HTTP2ConnectionStateMachine`, writes the frames the machine collects (once per read, or at the
/// end of the loop's write batch), and runs each complete request through the router exactly as an
/// HTTP/1.1 exchange runs (`+Responses`). The connection keeps the socket, the write timeout and
/// the lingering close of a connection error.
// @unchecked: confined to its EventLoop's serial queue, which serialises every access the way a lock would.
final class HTTP2Connection: ServerProtocolHandler, @unchecked Sendable {
    /// The connection this protocol answers on.
    private unowned let connection: ServerConnection
    let stream: ByteStream
    let context: ServerContext
    let scheduler: EventLoopScheduler
    let date: HTTPDate.LoopCache
    /// Brings the events of this connection's handler and body streams onto its loop, in order.
    let loopDelivery: OrderedLoopDelivery
    /// The protocol's state; set in `init`, never replaced.
    private(set) var machine: HTTP2ConnectionStateMachine!

    // The socket's write batching: frames written once per read or batch, and a drain reported
    // from inside a write (a TLS flush sends at once) handled after it returns.
    private var spare: [UInt8] = []
    private var writing = false
    /// A `flushOutput` waits for the end of the loop's write batch (`flushSoon`).
    private var flushAtBatchEnd = false
    private var drainedWhileWriting = false

    init(connection: ServerConnection) {
        self.connection = connection
        stream = connection.stream
        context = connection.context
        scheduler = connection.scheduler
        date = connection.date
        loopDelivery = OrderedLoopDelivery(loop: stream.loop)
        machine = HTTP2ConnectionStateMachine(
            owner: self, limits: context.configuration.http2, maxBodyBytes: context.configuration.limits.maxBodyBytes)
    }

    /// Takes the connection over from the protocol detection, with the bytes read so far.
    func start(with bytes: UnsafeRawBufferPointer) {
        stream.onDrained = { [unowned self] in socketDrained() }
        report(.connectionOpened, streamID: 0, code: nil, reason: nil)
        machine.start()
        received(bytes)
    }

    func received(_ bytes: UnsafeRawBufferPointer) {
        machine.receive(bytes)
        flushOutput()
    }

    // MARK: - Output

    /// Writes the frames collected so far. The socket may report itself drained from inside the
    /// write (a TLS flush sends at once); the streams waiting for it go on after the write returns.
    func flushOutput() {
        guard !writing else { return }
        writing = true
        while machine.outputCount > 0 {
            var pending = spare
            spare = []
            machine.swapOutput(&pending)
            stream.write(pending)
            if machine.outputCount == 0 && pending.capacity <= 65_536 {
                pending.removeAll(keepingCapacity: true)
                spare = pending
            }
            if drainedWhileWriting {
                drainedWhileWriting = false
                machine.flushWaiting()
            }
        }
        writing = false
    }

    /// `flushOutput` at the end of the loop's write batch when one runs (a broadcast delivering to
    /// many of this connection's streams: all their frames leave in one write), else now.
    func flushSoon() {
        guard !flushAtBatchEnd else { return }
        if stream.loop.whenBatchEnds({ [self] in
            flushAtBatchEnd = false
            flushOutput()
        }) {
            flushAtBatchEnd = true
        } else {
            flushOutput()
        }
    }

    private func socketDrained() {
        guard !writing else {
            drainedWhileWriting = true
            return
        }
        machine.flushWaiting()
        flushOutput()
    }

    // MARK: - Timeouts, shutdown, close

    /// The timeouts the machine keeps (the preface, request bodies, shut windows, idleness); the
    /// connection keeps the write timeout and the lingering close's.
    func checkTimeouts(now: UInt64) {
        machine.tick(now: now, timeouts: context.configuration.timeouts)
        flushOutput()
    }

    /// Graceful shutdown: GOAWAY with the last stream started, streamed responses end, the close once all are done.
    func beginShutdown() {
        machine.beginShutdown()
        flushOutput()
    }

    func closed() {
        machine.closed()
        report(.connectionClosed, streamID: 0, code: nil, reason: nil)
    }
}

extension HTTP2Connection: HTTP2ConnectionOwner {
    var socketBacklog: Int { stream.bufferedByteCount }

    /// A server's connection opens no streams of its own: it never receives a response.
    func receivedResponseHead(_ stream: HTTP2Stream, _ head: consuming HTTP2ResponseHead) {}

    func close(_ how: HTTP2ConnectionClose) {
        switch how {
        case .afterFlush:
            flushOutput()
            stream.closeAfterFlush()
        case .lingerAfterFlush:
            flushOutput()
            // Closed at once, a peer still sending would get a TCP reset, which destroys the GOAWAY
            // in its receive buffer before it reads the reason.
            connection.lingerThenClose()
        case .now(let failure):
            stream.close(.failed(failure))
        }
    }

    func report(_ kind: HTTP2Event.Kind, streamID: UInt32, code: HTTP2ErrorCode?, reason: String?) {
        context.observer.http2Event?(HTTP2Event(kind: kind, remoteAddress: stream.remoteAddress, streamID: streamID, code: code, reason: reason))
    }

    func bodyTimedOut(_ target: HTTP2Stream, detail: String) {
        context.observer.requestRejected?(Rejection(
            status: HTTPStatus.requestTimeout.code, reason: .bodyTimeout, detail: detail, remoteAddress: stream.remoteAddress))
    }
}

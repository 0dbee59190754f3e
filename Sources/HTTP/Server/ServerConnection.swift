// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Dispatch
import NetCore

/// One accepted connection: owns its socket, lets the first bytes choose its protocol (ALPN's `h2`,
/// or HTTP/2's preface in cleartext: `HTTP2Detection`; anything else is HTTP/1.1) and hands the
/// connection's reading to that protocol's handler (`HTTP1Connection` or `HTTP2Connection`, which
/// know this type and not each other). What does not depend on the protocol stays here: the write
/// timeout, the timeout of a connection that never said which protocol it speaks, the lingering
/// close, and the close itself.
// @unchecked: confined to its EventLoop's serial queue, which serialises every access the way a lock would.
final class ServerConnection: @unchecked Sendable {
    let stream: ByteStream
    let context: ServerContext
    let scheduler: EventLoopScheduler
    let date: HTTPDate.LoopCache
    /// When the socket was accepted: until a protocol is chosen, the header timeout runs from here.
    let openedAt: UInt64
    /// The protocol chosen; nil while the first bytes leave it open.
    private var handler: (any ServerProtocolHandler)?
    /// The bytes read while they may still be HTTP/2's preface.
    private var detection: [UInt8] = []
    /// Set once an error answer was sent and the connection is being closed gracefully (see `lingerThenClose`).
    private var lingering: LingeringClose?
    var onClosed: (() -> Void)?

    init(stream: ByteStream, context: ServerContext, scheduler: EventLoopScheduler, date: HTTPDate.LoopCache) {
        self.stream = stream
        self.context = context
        self.scheduler = scheduler
        self.date = date
        openedAt = DispatchTime.now().uptimeNanoseconds
    }

    func start() {
        stream.onClose = { [unowned self] _ in closed() }
        if context.configuration.http2Enabled {
            stream.onRead = { [unowned self] bytes in detectProtocol(bytes) }
        } else {
            adopt(HTTP1Connection(connection: self))
        }
        stream.start()
    }

    // MARK: - Choosing the protocol

    /// The first bytes decide the protocol; the chosen handler gets them, and every read after them.
    private func detectProtocol(_ bytes: UnsafeRawBufferPointer) {
        // The first read alone decides almost always: its bytes go on without a copy.
        if detection.isEmpty {
            if HTTP2Detection.decide(bytes, isTLS: stream.isTLS, alpn: stream.applicationProtocol) == .http1 {
                adopt(HTTP1Connection(connection: self), with: bytes)
                return
            }
        }
        detection.append(contentsOf: bytes)
        let decision = HTTP2Detection.decide(detection, isTLS: stream.isTLS, alpn: stream.applicationProtocol)
        guard decision != .undecided else { return }
        let held = detection
        detection = []
        held.withUnsafeBytes { held in
            if decision == .http2 {
                adopt(HTTP2Connection(connection: self), with: held)
            } else {
                adopt(HTTP1Connection(connection: self), with: held)
            }
        }
    }

    /// Reads go to `handler` from now on (set before it handles the first bytes, which may end in a
    /// lingering close that takes the reads over); generic, so the read path calls it directly.
    private func adopt<Handler: ServerProtocolHandler>(_ handler: Handler, with held: UnsafeRawBufferPointer? = nil) {
        self.handler = handler
        stream.onRead = { [unowned handler] bytes in handler.received(bytes) }
        handler.start(with: held ?? UnsafeRawBufferPointer(start: nil, count: 0))
    }

    // MARK: - Timeouts, shutdown, close

    /// Called periodically by the loop's sweep.
    func checkTimeouts(now: UInt64) {
        guard !stream.isClosed else { return }
        if let lingering {
            if lingering.isOver(now: now) { stream.close(.local) }
            return
        }
        let timeouts = context.configuration.timeouts
        if stream.bufferedByteCount > 0 && now &- stream.lastWriteProgress > timeouts.write.nanoseconds {
            stream.close(.failed("write timeout"))
            return
        }
        guard let handler else {
            // No byte that chose a protocol yet: closed as an HTTP/1.1 connection that sent no request is.
            if stream.bufferedByteCount == 0 && now &- openedAt > timeouts.header.nanoseconds { stream.close(.local) }
            return
        }
        handler.checkTimeouts(now: now)
    }

    /// Graceful shutdown: the protocol finishes what is in flight; a connection still undecided closes.
    func beginShutdown() {
        guard !stream.isClosed else { return }
        guard let handler else { stream.closeAfterFlush(); return }
        handler.beginShutdown()
    }

    /// The shutdown deadline: the protocol answers or ends what it can, then the connection closes,
    /// whatever it was still sending.
    func deadlineReached() -> ShutdownDeadline.Outcome {
        guard !stream.isClosed else { return .alreadyClosed }
        defer { stream.close(.local) }
        guard let handler else { return stream.bufferedByteCount > 0 ? .cut : .idle }
        return handler.deadlineReached()
    }

    /// Closes the way nginx's lingering close does: the answer is sent, then FIN, then what the client
    /// still sends (the rest of a body that was too large, frames after a GOAWAY) is read and dropped
    /// for a bounded time and amount. Closing at once with unread input makes the kernel send a reset,
    /// which can destroy the answer before the client read it. TLS connections close after a
    /// close_notify instead.
    func lingerThenClose() {
        guard !stream.isClosed, lingering == nil else { return }
        guard !stream.isTLS else { stream.closeAfterFlush(); return }
        let linger = LingeringClose(now: DispatchTime.now().uptimeNanoseconds)
        lingering = linger
        stream.onRead = { [unowned self] bytes in
            if linger.discard(bytes.count) { stream.close(.local) }
        }
        if stream.bufferedByteCount == 0 {
            stream.socket.shutdownWrite()
        } else {
            stream.onDrained = { [unowned self] in stream.socket.shutdownWrite() }
        }
        stream.resumeReading()
    }

    private func closed() {
        handler?.closed()
        let onClosed = self.onClosed
        self.onClosed = nil
        onClosed?()
    }
}

/// One protocol's side of a `ServerConnection`: it reads, answers, and keeps its own timeouts; the
/// connection keeps the socket, the write timeout and the lingering close.
protocol ServerProtocolHandler: AnyObject {
    /// Takes the connection over with the bytes read so far (none when no detection ran).
    func start(with bytes: UnsafeRawBufferPointer)
    func received(_ bytes: UnsafeRawBufferPointer)
    /// The protocol's own timeouts (called while the socket is open and not lingering).
    func checkTimeouts(now: UInt64)
    /// Graceful shutdown began (called while the socket is open).
    func beginShutdown()
    /// The shutdown deadline passed: what it could do; the connection closes right after.
    func deadlineReached() -> ShutdownDeadline.Outcome
    /// The socket closed.
    func closed()
}

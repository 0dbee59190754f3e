// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch

/// A non-blocking byte connection, plain or TLS, driven by read and write
/// readiness sources on one event loop. Reads are delivered to `onRead`; writes
/// never block: what the socket does not take at once is buffered and sent
/// when it becomes writable. Shared by the HTTP server and the HTTP client.
///
/// Every method must be called on `loop` (callbacks also run there).
///
/// Never referenced weakly: an object that ever is gets a side table, and from then on each of
/// its retains and releases takes the runtime's slow path (~75–95 instructions instead of ~22);
/// a stream is retained and released dozens of times a request. Its readiness handlers reach it
/// through `Unretained` instead, sound because `close` and `deinit` cancel its sources on the loop
/// (a `/users?limit=30` request over HTTP/1.1 upstream connections: 1.873 M → 1.826 M instructions,
/// callgrind; the side-table retains 16.5 k → 5.0 k a request).
// @unchecked: confined to its EventLoop's serial queue, which serialises every access the way a lock would;
// `@exclusivity(unchecked)` on its state for the same reason (the run-time checks are a call per access).
public final class ByteStream: @unchecked Sendable {
    public enum CloseReason: Sendable, Equatable {
        case local
        case peerClosed
        case failed(String)
    }

    public let socket: Socket
    public let loop: EventLoop
    public let remoteAddress: String
    /// The peer's IP address as accepted (nil for a Unix socket, or where none was given).
    package let peerAddress: IPAddress?
    private let tls: TLSSession?

    @exclusivity(unchecked) private var readSource: LoopIOSource?
    @exclusivity(unchecked) private var writeSource: LoopIOSource?
    @exclusivity(unchecked) private var readSuspended = false
    @exclusivity(unchecked) private var writeSourceRunning = false
    @exclusivity(unchecked) private var output: [UInt8] = []
    @exclusivity(unchecked) private var outputStart = 0
    @exclusivity(unchecked) private var plaintextBeforeHandshake: [UInt8] = []
    @exclusivity(unchecked) private var receivedAny = false
    @exclusivity(unchecked) private var closeWhenFlushed = false
    /// Output is waiting for the loop's write batch to end (see `EventLoop.batchingWrites`).
    @exclusivity(unchecked) private var heldForBatch = false
    @exclusivity(unchecked) private var closed = false
    /// Whether the stream is closed, read through a call: a stored property inlined into another
    /// module (cross-module optimisation) begins a run-time exclusivity check there, which
    /// `@exclusivity(unchecked)` skips only in this module (about 75 instructions a read; the
    /// call about 10). Every connection checks it per request or stream.
    public var isClosed: Bool {
        @inline(never) get { closed }
    }
    @exclusivity(unchecked) private var isReady = false
    /// Monotonic nanoseconds of the last moment the output buffer was empty or moved.
    @exclusivity(unchecked) public private(set) var lastWriteProgress: UInt64 = DispatchTime.now().uptimeNanoseconds

    // The handlers too; set from another module they are still checked there: `setHandlers` sets
    // two in a call of this one.
    /// Received bytes (plaintext for TLS). The buffer is only valid during the call.
    @exclusivity(unchecked) public var onRead: ((UnsafeRawBufferPointer) -> Void)?
    /// The output buffer just became empty.
    @exclusivity(unchecked) public var onDrained: (() -> Void)?
    /// Called once when the connection closes, whoever closed it.
    @exclusivity(unchecked) public var onClose: ((CloseReason) -> Void)?
    /// Plain: right after `start()`. TLS: once the handshake completes.
    @exclusivity(unchecked) public var onReady: (() -> Void)?

    /// An object its owner keeps with the connection for as long as the connection lives (the
    /// HTTP client's pool keeps its idle watch here: made once per connection, not per check-in).
    /// Read and set through calls, as `isClosed` is read: the stored property read from the pool's
    /// module began a run-time exclusivity check there (~76 instructions a check-in, ~2.5 k a
    /// `/users?limit=30` request; callgrind).
    public var attachment: AnyObject? {
        @inline(never) get { attached }
        @inline(never) set { attached = newValue }
    }
    @exclusivity(unchecked) private var attached: AnyObject?

    /// Sets `onRead` and `onClose` at once. Here their accesses go unchecked; set from another
    /// module each was a run-time exclusivity check (`swift_beginAccess`, ~76 instructions): an
    /// upstream exchange sets both as it starts and clears both as it ends, and the pool sets
    /// both for an idle connection (~17 k instructions per `/users` request; the figure:
    /// Benchmarks/README.md).
    public func setHandlers(onRead: ((UnsafeRawBufferPointer) -> Void)?, onClose: ((CloseReason) -> Void)?) {
        self.onRead = onRead
        self.onClose = onClose
    }

    public convenience init(socket: Socket, loop: EventLoop, remoteAddress: String, tls: TLSSession? = nil) {
        self.init(socket: socket, loop: loop, remoteAddress: remoteAddress, peerAddress: nil, tls: tls)
    }

    package init(socket: Socket, loop: EventLoop, remoteAddress: String, peerAddress: IPAddress?, tls: TLSSession? = nil) {
        self.socket = socket
        self.loop = loop
        self.remoteAddress = remoteAddress
        self.peerAddress = peerAddress
        self.tls = tls
    }

    /// Bytes written but not yet accepted by the kernel.
    public var bufferedByteCount: Int { output.count - outputStart }

    public var isTLS: Bool { tls != nil }

    /// The protocol agreed by TLS ALPN (e.g. `http/1.1`), or nil.
    public var applicationProtocol: String? { tls?.negotiatedApplicationProtocol }

    /// Starts reading; a TLS client also sends its ClientHello here.
    public func start() {
        let source = loop.makeReadSource(fileDescriptor: socket.descriptor)
        let target = Unretained(self)
        source.setEventHandler { target.with { $0.readAvailable() } }
        readSource = source
        source.resume()
        if let tls {
            if case .failed(let message) = tls.handshake() { close(.failed(message)); return }
            flushTLS()
        } else {
            becomeReady()
        }
    }

    public func pauseReading() {
        guard let readSource, !readSuspended, !closed else { return }
        readSuspended = true
        readSource.suspend()
    }

    public func resumeReading() {
        guard let readSource, readSuspended, !closed else { return }
        readSuspended = false
        readSource.resume()
    }

    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard !closed, !closeWhenFlushed, bytes.count > 0 else { return }
        if let tls {
            guard tls.handshakeComplete else {
                plaintextBeforeHandshake.append(contentsOf: bytes)
                return
            }
            if case .failed(let message) = tls.write(bytes) { close(.failed(message)); return }
            flushTLS()
            return
        }
        if loop.isBatchingWrites {
            output.append(contentsOf: bytes)
            if !heldForBatch && !writeSourceRunning {
                heldForBatch = true
                loop.holdUntilBatchEnds(self)
            }
            return
        }
        if bufferedByteCount == 0 {
            // Fast path: straight to the kernel without copying into the buffer.
            switch socket.write(bytes) {
            case .transferred(let n):
                // The write timeout looks at this only while output is buffered: no clock read for a complete send.
                if n == bytes.count { return }
                lastWriteProgress = DispatchTime.now().uptimeNanoseconds
                output.append(contentsOf: bytes[n...])
            case .wouldBlock:
                lastWriteProgress = DispatchTime.now().uptimeNanoseconds
                output.append(contentsOf: bytes)
            case .closed:
                close(.peerClosed); return
            case .failed(let code):
                close(.failed(SocketError("send", code: code).description)); return
            }
            startWriteSource()
        } else {
            output.append(contentsOf: bytes)
        }
    }

    /// Sends what was held back during a write batch.
    func sendHeldOutput() {
        guard heldForBatch else { return }
        heldForBatch = false
        if !writeSourceRunning { flush() }
    }

    /// Closes once everything written so far has been sent.
    public func closeAfterFlush() {
        guard !closed else { return }
        if let tls, tls.handshakeComplete {
            tls.shutdown()
            flushTLS()
        }
        if bufferedByteCount == 0 {
            close(.local)
        } else {
            closeWhenFlushed = true
            pauseReading()
        }
    }

    deinit {
        // Dropped without close(): still release the descriptor and its sources. Cancelling them clears
        // their handlers, which refer to this stream unretained (`Unretained`): that has to be
        // done before the memory goes, so from another thread it waits for the loop to do it (a pending
        // readiness event would otherwise run the handler on a freed stream).
        guard !closed else { return }
        if (readSource == nil && writeSource == nil) || loop.inLoop {
            releaseDescriptor()
        } else {
            loop.sync { releaseDescriptor() }
        }
    }

    public func close(_ reason: CloseReason = .local) {
        guard !closed else { return }
        // Output held for a write batch (an epoll loop batches a busy turn's readiness handlers) would
        // have gone to the kernel already without the batch: one try to send it, as that direct write was.
        if heldForBatch {
            heldForBatch = false
            _ = output.withUnsafeBytes { socket.write(UnsafeRawBufferPointer(rebasing: $0[outputStart...])) }
        }
        closed = true
        releaseDescriptor()
        output = []
        outputStart = 0
        let onClose = self.onClose
        self.onRead = nil
        self.onDrained = nil
        self.onClose = nil
        self.onReady = nil
        onClose?(reason)
    }

    private func releaseDescriptor() {
        let sources = (readSource != nil ? 1 : 0) + (writeSource != nil ? 1 : 0)
        let closer = DescriptorCloser(socket: socket, sources: sources)
        if let readSource {
            readSource.setCancelHandler { closer.sourceCancelled() }
            readSource.cancel()
            if readSuspended { readSource.resume() }
        }
        if let writeSource {
            writeSource.setCancelHandler { closer.sourceCancelled() }
            writeSource.cancel()
            if !writeSourceRunning { writeSource.resume() }
        }
        readSource = nil
        writeSource = nil
    }

    private func becomeReady() {
        guard !isReady else { return }
        isReady = true
        onReady?()
    }

    private func readAvailable() {
        var rounds = 0
        while !closed && !readSuspended && rounds < 16 {
            rounds += 1
            let buffer = loop.readBuffer
            switch socket.read(into: buffer) {
            case .transferred(let n):
                deliver(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                if n < buffer.count { return }
            case .wouldBlock:
                return
            case .closed:
                close(.peerClosed); return
            case .failed(let code):
                close(.failed(SocketError("read", code: code).description)); return
            }
        }
    }

    private func deliver(_ bytes: UnsafeRawBufferPointer) {
        guard let tls else { onRead?(bytes); return }
        if !receivedAny {
            receivedAny = true
            if tls.isServer && PlainHTTPRejection.isPlainHTTP(bytes) {
                rejectPlainHTTP()
                return
            }
        }
        tls.feed(bytes)
        if !tls.handshakeComplete {
            switch tls.handshake() {
            case .done:
                flushTLS()
                if !plaintextBeforeHandshake.isEmpty {
                    let pending = plaintextBeforeHandshake
                    plaintextBeforeHandshake = []
                    write(pending)
                }
                becomeReady()
            case .needsMoreInput:
                flushTLS(); return
            case .closed:
                close(.peerClosed); return
            case .failed(let message):
                flushTLS() // lets the alert reach the peer before the close
                close(.failed(message)); return
            }
        }
        while !closed {
            let (n, progress) = tls.read(into: loop.plaintextBuffer)
            if n > 0 { onRead?(UnsafeRawBufferPointer(rebasing: loop.plaintextBuffer[0..<n])); continue }
            switch progress {
            case .done, .needsMoreInput: flushTLS(); return
            case .closed: close(.peerClosed); return
            case .failed(let message): close(.failed(message)); return
            }
        }
    }

    /// Answers, unencrypted, a plain HTTP request sent to this TLS server, then closes.
    private func rejectPlainHTTP() {
        output.append(contentsOf: PlainHTTPRejection.response)
        flush()
        closeAfterFlush()
    }

    private func flushTLS() {
        guard let tls, !closed, tls.hasPendingCiphertext else { return }
        let wasEmpty = bufferedByteCount == 0
        tls.drainCiphertext(into: &output)
        if wasEmpty { flush() }
    }

    private func startWriteSource() {
        guard !writeSourceRunning, !closed else { return }
        if writeSource == nil {
            let source = loop.makeWriteSource(fileDescriptor: socket.descriptor)
            let target = Unretained(self)
            source.setEventHandler { target.with { $0.flush() } }
            writeSource = source
        }
        writeSourceRunning = true
        writeSource?.resume()
    }

    private func stopWriteSource() {
        guard writeSourceRunning, let writeSource else { return }
        writeSourceRunning = false
        writeSource.suspend()
    }

    private func flush() {
        while !closed && bufferedByteCount > 0 {
            let result = output.withUnsafeBytes { raw in
                socket.write(UnsafeRawBufferPointer(rebasing: raw[outputStart...]))
            }
            switch result {
            case .transferred(let n):
                outputStart += n
                lastWriteProgress = DispatchTime.now().uptimeNanoseconds
            case .wouldBlock:
                startWriteSource(); return
            case .closed:
                close(.peerClosed); return
            case .failed(let code):
                close(.failed(SocketError("send", code: code).description)); return
            }
        }
        guard !closed else { return }
        // Keep a small buffer for the next burst; give big ones back (10,000 idle clients × capacity adds up).
        output.removeAll(keepingCapacity: output.capacity <= 4096)
        outputStart = 0
        lastWriteProgress = DispatchTime.now().uptimeNanoseconds
        stopWriteSource()
        if closeWhenFlushed { close(.local); return }
        onDrained?()
    }
}

/// Closes a descriptor once every Dispatch source watching it has been cancelled,
/// so epoll never sees a descriptor number that was already reused.
// @unchecked: only touched from cancel handlers, which run on the one serial loop queue.
private final class DescriptorCloser: @unchecked Sendable {
    private let socket: Socket
    private var remaining: Int

    init(socket: Socket, sources: Int) {
        self.socket = socket
        remaining = sources
        if sources == 0 { socket.close() }
    }

    func sourceCancelled() {
        remaining -= 1
        if remaining == 0 { socket.close() }
    }
}

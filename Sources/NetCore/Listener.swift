// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import StreamServiceConcurrency

/// A listening socket watched by one event loop: each time it is readable the loop
/// accepts the pending connections (at most `acceptsPerWakeup`, the rest on its next
/// turn), so a burst of thousands of connects drains in a few passes without keeping
/// the loop from the connections it already serves. On the epoll engine accepting is
/// part of the loop's own `epoll_wait`; on the Dispatch engine it is a read source on
/// the loop's queue. Either way no thread of its own.
// @unchecked: confined to its event loop, which serialises every access the way a lock would.
public final class Listener: @unchecked Sendable {
    public let socket: Socket
    /// The bound port (the real one when 0 was asked for).
    public let port: Int
    /// The loop that accepts.
    public let loop: EventLoop
    private var source: LoopIOSource?
    private var stopped = false
    private let onAccept: (Socket, SocketAddress) -> Void
    private let onPause: (AcceptPause) -> Void
    /// Set while accepting is paused after a failure (see `AcceptPause`).
    private var pause: (since: ContinuousClock.Instant, retries: Int, timer: LoopTimer)?

    /// Accepts per readiness event: 64 is a few milliseconds of connection set-up, after which
    /// the loop serves its other sockets before it accepts more.
    package static let acceptsPerWakeup = 64

    /// Binds and listens (with `SO_REUSEPORT` when `reusePort`); call `start()` to begin accepting.
    /// `onAccept` and `onPause` run on `loop`.
    public init(
        host: String, port: Int, backlog: Int32, reusePort: Bool = false, loop: EventLoop,
        onPause: @escaping (AcceptPause) -> Void = { _ in },
        onAccept: @escaping (Socket, SocketAddress) -> Void
    ) throws {
        socket = try Socket.listen(host: host, port: port, backlog: backlog, reusePort: reusePort)
        self.port = socket.localAddress()?.port ?? port
        self.loop = loop
        self.onAccept = onAccept
        self.onPause = onPause
    }

    public func start() {
        loop.execute { [self] in
            guard source == nil, !stopped else { return }
            let source = loop.makeReadSource(fileDescriptor: socket.descriptor)
            source.setEventHandler { [weak self] in self?.acceptPending() }
            self.source = source
            source.resume()
        }
    }

    /// Stops accepting and closes the listening socket; `completion` runs once it is closed.
    public func stop(completion: @escaping @Sendable () -> Void = {}) {
        loop.execute { [self] in
            guard !stopped else { return completion() }
            stopped = true
            let paused = pause != nil
            pause?.timer.cancel()
            pause = nil
            guard let source else {
                socket.close()
                return completion()
            }
            self.source = nil
            // Closed only once the loop no longer watches it, so no descriptor number is reused under epoll.
            let socket = self.socket
            source.setCancelHandler {
                socket.close()
                completion()
            }
            source.cancel()
            // A suspended Dispatch source runs its cancel handler only once resumed.
            if paused { source.resume() }
        }
    }

    private func acceptPending() {
        for _ in 0..<Self.acceptsPerWakeup {
            guard !stopped else { return }
            switch socket.accept() {
            case .accepted(let client, let address):
                if let pause {
                    self.pause = nil
                    pause.timer.cancel()
                    onPause(.resumed(after: .now - pause.since, retries: pause.retries))
                }
                onAccept(client, address)
            case .wouldBlock:
                return
            case .failed(let error):
                // EMFILE and friends: the socket stays readable, so stop watching it for a while
                // rather than be woken for it again at once (a loop spinning at a full core).
                pauseAccepting(after: error)
                return
            }
        }
    }

    private func pauseAccepting(after error: SocketError) {
        guard let source else { return }
        source.suspend()
        let timer = pause?.timer ?? loop.makeTimer()
        if let pause {
            self.pause = (pause.since, pause.retries + 1, timer)
        } else {
            pause = (.now, 0, timer)
            timer.setEventHandler { [weak self] in self?.retryAfterPause() }
            timer.resume()
            onPause(.paused(error))
        }
        timer.schedule(deadline: .now() + .nanoseconds(Int(AcceptPause.retryInterval.nanoseconds)))
    }

    /// Watches the socket again: a pending connection is accepted at once, or fails and pauses again.
    private func retryAfterPause() {
        guard !stopped, pause != nil, let source else { return }
        source.resume()
    }
}

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

    /// Accepts per readiness event: 64 is a few milliseconds of connection set-up, after which
    /// the loop serves its other sockets before it accepts more.
    package static let acceptsPerWakeup = 64

    /// Binds and listens (with `SO_REUSEPORT` when `reusePort`); call `start()` to begin accepting.
    /// `onAccept` runs on `loop`.
    public init(
        host: String, port: Int, backlog: Int32, reusePort: Bool = false, loop: EventLoop,
        onAccept: @escaping (Socket, SocketAddress) -> Void
    ) throws {
        socket = try Socket.listen(host: host, port: port, backlog: backlog, reusePort: reusePort)
        self.port = socket.localAddress()?.port ?? port
        self.loop = loop
        self.onAccept = onAccept
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
        }
    }

    private func acceptPending() {
        for _ in 0..<Self.acceptsPerWakeup {
            guard !stopped else { return }
            switch socket.accept() {
            case .accepted(let client, let address):
                onAccept(client, address)
            case .wouldBlock:
                return
            case .failed:
                // EMFILE and friends: leave the rest in the backlog for the next readiness event.
                return
            }
        }
    }
}

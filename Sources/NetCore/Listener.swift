import Dispatch

/// A listening socket that accepts every pending connection each time it is
/// readable (until EAGAIN), so a burst of thousands of connects drains in one pass.
// @unchecked: confined to its serial accept queue, which serialises every access the way a lock would.
public final class Listener: @unchecked Sendable {
    public let socket: Socket
    /// The bound port (the real one when 0 was asked for).
    public let port: Int
    private let queue: DispatchQueue
    private var source: DispatchSourceRead?
    private let onAccept: (Socket, SocketAddress) -> Void

    /// Binds and listens; call `start()` to begin accepting.
    public init(host: String, port: Int, backlog: Int32, queue: DispatchQueue, onAccept: @escaping (Socket, SocketAddress) -> Void) throws {
        socket = try Socket.listen(host: host, port: port, backlog: backlog)
        self.port = socket.localAddress()?.port ?? port
        self.queue = queue
        self.onAccept = onAccept
    }

    public func start() {
        queue.async { [self] in
            guard source == nil else { return }
            let source = DispatchSource.makeReadSource(fileDescriptor: socket.descriptor, queue: queue)
            source.setEventHandler { [weak self] in self?.acceptPending() }
            let socket = self.socket
            source.setCancelHandler { socket.close() }
            self.source = source
            source.resume()
        }
    }

    /// Stops accepting and closes the listening socket; `completion` runs once it is closed.
    public func stop(completion: @escaping @Sendable () -> Void = {}) {
        queue.async { [self] in
            if let source {
                self.source = nil
                source.cancel()
            } else {
                socket.close()
            }
            completion()
        }
    }

    private func acceptPending() {
        while source != nil {
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

import ConcurrencyHelpers
import NetCore
import Synchronization

/// Idle keep-alive connections per origin (scheme, host, port), reused
/// most-recently-idle first. A connection closed by the peer while idle leaves the pool.
final class ConnectionPool: Sendable {
    struct Origin: Hashable, Sendable {
        let secure: Bool
        let host: String
        let port: Int
    }

    private let idle = Locked<[Origin: [ByteStream]]>([:])
    let maxIdlePerOrigin: Int

    init(maxIdlePerOrigin: Int) {
        self.maxIdlePerOrigin = maxIdlePerOrigin
    }

    func checkout(_ origin: Origin) -> ByteStream? {
        idle.withLock { $0[origin]?.popLast() }
    }

    /// Must be called on `stream.loop`. Closes the stream when the pool is full.
    func checkin(_ stream: ByteStream, for origin: Origin) {
        let accepted = idle.withLock { idle -> Bool in
            guard idle[origin, default: []].count < maxIdlePerOrigin else { return false }
            idle[origin, default: []].append(stream)
            return true
        }
        guard accepted else {
            stream.close()
            return
        }
        stream.onClose = { [weak self, unowned stream] _ in self?.remove(stream, from: origin) }
        // An idle connection has nothing to say; anything it sends means it is unusable.
        stream.onRead = { [unowned stream] _ in stream.close() }
    }

    var idleCount: Int { idle.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    private func remove(_ stream: ByteStream, from origin: Origin) {
        idle.withLock { idle in idle[origin]?.removeAll { $0 === stream } }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import StreamServiceConcurrency

/// The hub's replay buffer, split by publishing thread: each thread files its events in the
/// ring of its stripe (chosen by a hash of the thread), under that stripe's lock alone, so
/// event loops publishing at once do not wait for each other. Readers take every stripe's lock
/// and merge by id.
///
/// Each ring keeps up to `capacity` events: when it is full, its oldest is at least `capacity`
/// ids older than the newest anywhere, so out of the replay window. The price is memory: a
/// stripe that stops publishing keeps its last events until it publishes again (at most
/// `capacity` each; about 200 bytes an event).
final class EventStripes: Sendable {
    /// 16: the 4 server loops, the client's loops and Dispatch's threads rarely share one.
    static let count = 16

    private let rings: [Locked<EventRing>]

    init(capacity: Int) {
        rings = (0..<Self.count).map { _ in Locked(EventRing(capacity: capacity)) }
    }

    /// The calling thread's stripe.
    var current: Locked<EventRing> { rings[Self.index(of: Self.threadIdentity)] }

    /// Runs `body` holding every stripe's lock (taken in index order, the one order any reader
    /// takes), with the events whose ids are above `id`, oldest first.
    func withAll<Result>(after id: Int, _ body: ([PipelineEvent]) -> Result) -> Result {
        hold(from: 0, after: id, []) { body($0.sorted { $0.id < $1.id }) }
    }

    private func hold<Result>(from index: Int, after id: Int, _ collected: [PipelineEvent], _ body: ([PipelineEvent]) -> Result) -> Result {
        guard index < rings.count else { return body(collected) }
        return rings[index].withLock { ring in hold(from: index + 1, after: id, collected + ring.events(after: id), body) }
    }

    /// A stripe for a thread identity: the identity's page number, mixed (Fibonacci hashing),
    /// top bits. Thread identities are addresses of thread control blocks, megabytes apart.
    static func index(of identity: UInt) -> Int {
        Int(truncatingIfNeeded: ((identity >> 12) &* 0x9E37_79B9_7F4A_7C15) >> UInt(UInt.bitWidth - 4)) & (count - 1)
    }

    private static var threadIdentity: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}

import Dispatch

/// A serial Dispatch queue that owns a set of connections: everything a
/// connection does runs on its loop, so connection state needs no locks.
public final class EventLoop: Sendable {
    public let queue: DispatchQueue
    private let key = DispatchSpecificKey<ObjectIdentifier>()

    public init(label: String) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
        queue.setSpecific(key: key, value: ObjectIdentifier(self))
    }

    /// True when called from this loop's queue.
    public var inLoop: Bool {
        DispatchQueue.getSpecific(key: key) == ObjectIdentifier(self)
    }

    public func execute(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    /// Runs `work` now when already on the loop, else enqueues it.
    public func executeSoon(_ work: @escaping @Sendable () -> Void) {
        if inLoop { work() } else { queue.async(execute: work) }
    }
}

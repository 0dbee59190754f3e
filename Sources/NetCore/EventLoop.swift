import Dispatch

/// A serial Dispatch queue that owns a set of connections: everything a
/// connection does runs on its loop, so connection state needs no locks.
public final class EventLoop: Sendable {
    public let queue: DispatchQueue
    private let key = DispatchSpecificKey<ObjectIdentifier>()
    /// Scratch space for socket reads, shared by every connection of this loop:
    /// 10,000 idle connections then cost no read buffers at all.
    nonisolated(unsafe) let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    /// Scratch space for decrypted TLS bytes, likewise shared.
    nonisolated(unsafe) let plaintextBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    public init(label: String) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
        queue.setSpecific(key: key, value: ObjectIdentifier(self))
    }

    deinit {
        readBuffer.deallocate()
        plaintextBuffer.deallocate()
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

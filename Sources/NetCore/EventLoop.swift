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
    /// Loop-confined: how many `batchingWrites` calls are running, and the streams holding output until they end.
    nonisolated(unsafe) private var batchDepth = 0
    nonisolated(unsafe) private var heldStreams: [ByteStream] = []

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

    /// Runs `body` (on the loop) with socket writes held back until it returns, then sends
    /// each stream's output with one system call: a feed's last event and its end, or a
    /// response head and the first bytes of its body, leave in one segment instead of two.
    public func batchingWrites(_ body: () -> Void) {
        batchDepth += 1
        body()
        batchDepth -= 1
        guard batchDepth == 0, !heldStreams.isEmpty else { return }
        let streams = heldStreams
        heldStreams = []
        for stream in streams { stream.sendHeldOutput() }
    }

    /// True inside `batchingWrites`, when a write should wait for the batch to end.
    var isBatchingWrites: Bool { batchDepth > 0 }

    func holdUntilBatchEnds(_ stream: ByteStream) {
        heldStreams.append(stream)
    }

    /// Runs `work` now when already on the loop, else enqueues it.
    public func executeSoon(_ work: @escaping @Sendable () -> Void) {
        if inLoop { work() } else { queue.async(execute: work) }
    }
}

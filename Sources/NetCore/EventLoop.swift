// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One thread's worth of connections: everything a connection does runs on its loop, so
/// connection state needs no locks. Readiness sources, timers and queued work made through
/// the loop all run there, one at a time.
///
/// Two engines behind the same interface: on Linux a thread of its own waiting on its own
/// epoll instance (`EpollLoop`); elsewhere, or with `NETCORE_EVENT_LOOP=dispatch`, a serial
/// Dispatch queue with Dispatch sources (the portable path, and the "before" of a benchmark).
public final class EventLoop: Sendable {
    public enum Engine: String, Sendable {
        case epoll
        case dispatch

        /// epoll on Linux unless the environment asks for `NETCORE_EVENT_LOOP=dispatch`.
        public static let `default`: Engine = {
            #if os(Linux)
            if let value = getenv("NETCORE_EVENT_LOOP"), String(cString: value) == "dispatch" { return .dispatch }
            return .epoll
            #else
            return .dispatch
            #endif
        }()
    }

    private enum Backend: Sendable {
        case dispatch(DispatchQueue, DispatchSpecificKey<ObjectIdentifier>)
        #if os(Linux)
        case epoll(EpollLoop)
        #endif
    }

    private let backend: Backend
    /// This loop as its thread (queue) sees it: `EventLoop.current`, and the epoll engine's owner.
    private let currentReference = CurrentEventLoop.Reference()
    public var engine: Engine {
        switch backend {
        case .dispatch: .dispatch
        #if os(Linux)
        case .epoll: .epoll
        #endif
        }
    }

    /// Scratch space for socket reads, shared by every connection of this loop:
    /// 10,000 idle connections then cost no read buffers at all.
    nonisolated(unsafe) let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    /// Scratch space for decrypted TLS bytes, likewise shared.
    nonisolated(unsafe) let plaintextBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    /// Loop-confined: how many `batchingWrites` calls are running, and the streams holding output until they end.
    nonisolated(unsafe) private var batchDepth = 0
    nonisolated(unsafe) private var heldStreams: [ByteStream] = []
    nonisolated(unsafe) private var batchEndWork: [() -> Void] = []
    /// Loop-confined: objects other parts keep per loop (`loopLocal`), unretained, at their key.
    /// Keys are small counters: an array read, where a dictionary's hashed lookup cost each
    /// `PerLoop` lookup (a timer armed, a request timeout) ~230 instructions more (the figure:
    /// Benchmarks/README.md).
    // Unchecked: touched on the loop only (the run-time check cost ~76 instructions per lookup, one per exchange).
    // Unretained, not weak: a weak reference gives its object a side table, and each retain and release
    // of it then takes the runtime's slow path (~75–95 instructions instead of ~22); the per-loop request
    // timeouts are looked up once an exchange (the weak loads were ~1.1 k instructions a `/users?limit=30`
    // request; the timeouts' own timer now holds them strongly, `ExchangeTimeouts.Owner`, so they have none).
    @exclusivity(unchecked) nonisolated(unsafe) private var locals: [Unmanaged<AnyObject>?] = []

    public init(label: String, engine: Engine = .default) {
        switch engine {
        case .dispatch:
            let queue = DispatchQueue(label: label, qos: .userInitiated)
            let key = DispatchSpecificKey<ObjectIdentifier>()
            backend = .dispatch(queue, key)
            queue.setSpecific(key: key, value: ObjectIdentifier(self))
        case .epoll:
            #if os(Linux)
            backend = .epoll(EpollLoop(name: label))
            #else
            preconditionFailure("the epoll engine exists on Linux only")
            #endif
        }
        let reference = currentReference
        reference.set(self)
        switch backend {
        case .dispatch(let queue, _): queue.setSpecific(key: CurrentEventLoop.queueKey, value: reference)
        #if os(Linux)
        // The loop's first job, so everything it runs later sees it.
        case .epoll(let loop):
            loop.execute {
                CurrentEventLoop.adoptThread(reference)
                loop.adopt(reference)
            }
        #endif
        }
    }

    /// The loop running the caller (its thread, or its queue for the Dispatch engine); nil
    /// off every loop. Lets a client keep a request's follow-up work on the loop it came from.
    public static var current: EventLoop? { CurrentEventLoop.loop }

    deinit {
        forgetOnLoop()
        #if os(Linux)
        // The loop's thread holds only the engine, never this object: it ends here.
        if case .epoll(let loop) = backend { loop.stop() }
        #endif
        readBuffer.deallocate()
        plaintextBuffer.deallocate()
    }

    /// Clears the loop's unretained references to this object (`CurrentEventLoop.Reference`) on the
    /// loop, waiting for it when called elsewhere: work already queued, or a turn under way, must not
    /// reach this object once its memory is gone. Called by deinit.
    private func forgetOnLoop() {
        let current = currentReference
        if inLoop { current.forget(); return }
        switch backend {
        case .dispatch(let queue, _): queue.sync { current.forget() }
        #if os(Linux)
        case .epoll(let loop):
            let forgotten = DispatchSemaphore(value: 0)
            loop.execute {
                current.forget()
                forgotten.signal()
            }
            forgotten.wait()
        #endif
        }
    }

    /// True when called from this loop's thread (queue).
    public var inLoop: Bool {
        switch backend {
        case .dispatch(_, let key): DispatchQueue.getSpecific(key: key) == ObjectIdentifier(self)
        #if os(Linux)
        case .epoll(let loop): loop.inLoop
        #endif
        }
    }

    public func execute(_ work: @escaping @Sendable () -> Void) {
        switch backend {
        case .dispatch(let queue, _): queue.async(execute: work)
        #if os(Linux)
        case .epoll(let loop): loop.execute(work)
        #endif
        }
    }

    /// Runs `work` on the loop and waits for its result; never call it from the loop itself.
    public func sync<Result>(_ work: () -> Result) -> Result {
        precondition(!inLoop, "EventLoop.sync called on its own loop")
        switch backend {
        case .dispatch(let queue, _):
            return queue.sync(execute: work)
        #if os(Linux)
        case .epoll(let loop):
            return withoutActuallyEscaping(work) { work in
                let call = SyncCall(work)
                let done = DispatchSemaphore(value: 0)
                loop.execute {
                    call.run()
                    done.signal()
                }
                done.wait()
                return call.result.withLock { $0! }
            }
        #endif
        }
    }

    /// Read readiness of `fileDescriptor`, reported on this loop. Make it on the loop.
    public func makeReadSource(fileDescriptor: Int32) -> LoopIOSource {
        switch backend {
        case .dispatch(let queue, _): LoopIOSource(dispatch: DispatchSource.makeReadSource(fileDescriptor: fileDescriptor, queue: queue))
        #if os(Linux)
        case .epoll(let loop): LoopIOSource(epoll: loop, fileDescriptor: fileDescriptor, writable: false)
        #endif
        }
    }

    /// Write readiness of `fileDescriptor`, reported on this loop. Make it on the loop.
    public func makeWriteSource(fileDescriptor: Int32) -> LoopIOSource {
        switch backend {
        case .dispatch(let queue, _): LoopIOSource(dispatch: DispatchSource.makeWriteSource(fileDescriptor: fileDescriptor, queue: queue))
        #if os(Linux)
        case .epoll(let loop): LoopIOSource(epoll: loop, fileDescriptor: fileDescriptor, writable: true)
        #endif
        }
    }

    /// A timer whose handler runs on this loop; from any thread.
    public func makeTimer() -> LoopTimer {
        switch backend {
        case .dispatch(let queue, _): LoopTimer(dispatchQueue: queue)
        #if os(Linux)
        case .epoll(let loop): LoopTimer(epoll: loop)
        #endif
        }
    }

    /// Runs `body` (on the loop) with socket writes held back until it returns, then sends
    /// each stream's output with one system call: a feed's last event and its end, or a
    /// response head and the first bytes of its body, leave in one segment instead of two.
    public func batchingWrites(_ body: () -> Void) {
        batchDepth += 1
        body()
        batchDepth -= 1
        guard batchDepth == 0 else { return }
        if !batchEndWork.isEmpty {
            // Before the held output is sent: what this work writes joins it in the same system call.
            let work = batchEndWork
            batchEndWork = []
            for run in work { run() }
        }
        guard !heldStreams.isEmpty else { return }
        let streams = heldStreams
        heldStreams = []
        for stream in streams { stream.sendHeldOutput() }
    }

    /// Inside `batchingWrites`, keeps `work` for the batch's end (before the held output is sent) and
    /// returns true; outside one, returns false and the caller does the work now. Call on the loop.
    /// A writer that collects its own output (an HTTP/2 connection gathering the frames of all its
    /// streams during a broadcast) then hands the socket one buffer instead of one per stream.
    public func whenBatchEnds(_ work: @escaping () -> Void) -> Bool {
        guard batchDepth > 0 else { return false }
        batchEndWork.append(work)
        return true
    }

    /// True inside `batchingWrites`, when a write should wait for the batch to end.
    var isBatchingWrites: Bool { batchDepth > 0 }

    func holdUntilBatchEnds(_ stream: ByteStream) {
        heldStreams.append(stream)
    }

    /// The object kept on this loop under `key` by `setLoopLocal`. Call on the loop: no lock, so a
    /// per-loop object (a scheduler per loop) is found without the loops contending for a shared
    /// lock on every use. Only the owner of the key may ask, and only while it keeps the object
    /// alive (see `setLoopLocal`).
    public func loopLocal(_ key: Int) -> AnyObject? {
        key >= 0 && key < locals.count ? locals[key]?.takeUnretainedValue() : nil
    }

    /// Keeps `object` on this loop under `key`, a small non-negative number never used for another
    /// object (a counter of the objects' owners). Call on the loop. The loop does not retain it (it
    /// must not keep its owners' objects, and through them often itself, alive) nor refer to it
    /// weakly (see `locals`): the caller keeps `object` alive for as long as it reads `key`, as
    /// `PerLoop` does, owning its objects and being the only reader of its key.
    public func setLoopLocal(_ object: AnyObject, for key: Int) {
        precondition(key >= 0, "loop-local keys are counters")
        if key >= locals.count { locals.append(contentsOf: repeatElement(nil, count: key + 1 - locals.count)) }
        locals[key] = .passUnretained(object)
    }

    /// Runs `work` now when already on the loop, else enqueues it.
    public func executeSoon(_ work: @escaping @Sendable () -> Void) {
        if inLoop { work() } else { execute(work) }
    }
}

/// `sync`'s work and result, handed to the loop thread and back; the caller waits until it ran.
// @unchecked: `work` is set before the loop gets this and used once there while the caller waits; `result` is behind a lock.
private final class SyncCall<Value>: @unchecked Sendable {
    private var work: (() -> Value)?
    let result = Locked<Value?>(nil)

    init(_ work: @escaping () -> Value) {
        self.work = work
    }

    func run() {
        let value = work!()
        // Dropped before the caller is signalled: `withoutActuallyEscaping` traps if the closure
        // outlives its block, and the loop may still hold this object for a moment.
        work = nil
        result.withLock { $0 = value }
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which `EventLoop` the calling thread is running, for `EventLoop.current`.
///
/// An epoll loop's thread records its loop in a thread-local slot as its first job; a
/// Dispatch loop's queue carries it as a queue-specific value. Each holds the loop unretained:
/// the thread (or queue) must never keep its loop alive.
enum CurrentEventLoop {
    /// The loop, unretained and not weak (a weak reference gives the loop a side table, and each
    /// retain and release of it then takes the runtime's slow path: ~75–95 instructions instead of
    /// ~22; with the loop's three weak references gone a `/users?limit=30` request spent ~5 k fewer
    /// in the slow release path and ~1.7 k fewer in weak loads, callgrind). So the slot can outlive
    /// the loop, the loop's deinit clears it on the loop before the memory goes (`forget`), and only
    /// the loop reads it.
    // @unchecked: `loop` is read and cleared only on the loop's thread (queue), set before it runs.
    final class Reference: @unchecked Sendable {
        /// Unchecked: only the loop's thread reads and clears it, after its init set it; the run-time
        /// exclusivity check cost ~76 instructions each `EventLoop.current`, once an exchange.
        @exclusivity(unchecked) unowned(unsafe) private(set) var loop: EventLoop?

        /// Call from the loop's init, before the loop runs anything.
        func set(_ loop: EventLoop) {
            self.loop = loop
        }

        /// Call on the loop, from its deinit: nothing the loop runs later reaches it.
        func forget() {
            loop = nil
        }
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<Reference>.fromOpaque(pointer).release()
        }
        return key
    }()

    static let queueKey = DispatchSpecificKey<Reference>()

    /// Called on a loop's own thread: from now on `loop` is this thread's current loop.
    static func adoptThread(_ reference: Reference) {
        if let previous = pthread_getspecific(threadKey) { Unmanaged<Reference>.fromOpaque(previous).release() }
        pthread_setspecific(threadKey, Unmanaged.passRetained(reference).toOpaque())
    }

    static var loop: EventLoop? {
        if let pointer = pthread_getspecific(threadKey) {
            // Read where it lies: the thread holds its reference (`adoptThread`), so it is not
            // retained and released around the read (~44 instructions an exchange).
            return Unmanaged<Reference>.fromOpaque(pointer)._withUnsafeGuaranteedRef { $0.loop }
        }
        return DispatchQueue.getSpecific(key: queueKey)?.loop
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock stored inline (no allocation) for the core's tiny, rarely contended
/// critical sections (a subscription's own state): a few field updates, never
/// a call out to other code. State that many threads hammer uses `Locked`.
/// `package` for the HTTP client's exchange, whose state is touched by its
/// connection's loop and, rarely, a cancel: one lock type for both, inline.
///
/// Built on an `Atomic` with acquire/release ordering, so ThreadSanitizer
/// sees its happens-before edges (unlike `Synchronization.Mutex` on Linux).
/// A waiter spins briefly, then yields its time slice, so a holder preempted
/// on a busy machine is not starved.
@usableFromInline
package struct SpinLock: ~Copyable, Sendable {
    @usableFromInline let held = Atomic<Bool>(false)

    @inlinable
    package init() {}

    @inlinable
    package func lock() {
        if held.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { return }
        lockContended()
    }

    @usableFromInline
    func lockContended() {
        var spins = 0
        while true {
            if !held.load(ordering: .relaxed),
               held.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
                return
            }
            spins += 1
            if spins >= 64 { sched_yield() }
        }
    }

    @inlinable
    package func unlock() {
        held.store(false, ordering: .releasing)
    }
}

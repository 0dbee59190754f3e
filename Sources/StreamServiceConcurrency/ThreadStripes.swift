// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One value per stripe of threads, each behind its own lock: a thread uses its stripe's
/// (chosen by a hash of the thread), which other threads rarely share, so the server's event
/// loops do not wait for each other where one lock for all of them was contended about twice
/// a `/users` request (futex calls, `perf`). A reader wanting all of them takes every lock.
package final class ThreadStripes<Value>: Sendable {
    /// 16: the 4 server loops, the client's loops and Dispatch's threads rarely share one.
    @inlinable
    package static var count: Int { 16 }

    @usableFromInline let stripes: [Locked<Value>]

    package init(_ make: () -> Value) {
        stripes = (0..<Self.count).map { _ in Locked(make()) }
    }

    /// The calling thread's stripe. Inlinable, so that its caller (another module) specialises it:
    /// unspecialised, the array's element type `Locked<Value>` was looked up at run time on every call.
    @inlinable
    package var current: Locked<Value> { stripes[Self.index(of: Self.threadIdentity)] }

    /// Runs `body` holding every stripe's lock (taken in index order, the one order any reader
    /// takes), with what `collect` took from each stripe, in stripe order.
    package func withAll<Element, Result>(collecting collect: (inout Value) -> [Element], _ body: ([Element]) -> Result) -> Result {
        hold(from: 0, [], collect, body)
    }

    private func hold<Element, Result>(
        from index: Int, _ collected: [Element], _ collect: (inout Value) -> [Element], _ body: ([Element]) -> Result
    ) -> Result {
        guard index < stripes.count else { return body(collected) }
        return stripes[index].withLock { value in hold(from: index + 1, collected + collect(&value), collect, body) }
    }

    /// A stripe for a thread identity: the identity's page number, mixed (Fibonacci hashing),
    /// top bits. Thread identities are addresses of thread control blocks, megabytes apart.
    @inlinable
    package static func index(of identity: UInt) -> Int {
        Int(truncatingIfNeeded: ((identity >> 12) &* 0x9E37_79B9_7F4A_7C15) >> UInt(UInt.bitWidth - 4)) & (count - 1)
    }

    @usableFromInline
    static var threadIdentity: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}

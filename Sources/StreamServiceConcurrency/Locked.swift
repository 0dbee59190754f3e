// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a pthread mutex, in a class so `@Sendable` closures can share it:
/// the one lock type of every module (Streams, NetCore, HTTP, Domain, Server).
///
/// Used where several threads may contend (subjects, the serializing sink of
/// merge/zip/…, operator state): a waiter sleeps in the kernel instead of
/// spinning, so a thread emitting in a tight loop cannot starve the others.
/// Not `Synchronization.Mutex`: on Linux that one waits through futex calls in
/// the uninstrumented standard library, so ThreadSanitizer cannot see it and
/// reports false races on everything it protects; pthread locks are
/// intercepted by the sanitizer.
// @unchecked: `value` is only touched inside `withLock`, under the mutex.
@usableFromInline
package final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline @exclusivity(unchecked) var value: Value

    @inlinable
    package init(_ value: sending Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access; never call out to user code from `body`.
    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// `withLock`, `handed` given to `body` to keep (`consuming`): moved into the value, where
    /// a value `body` captured is copied in and then released by the caller.
    @inlinable
    package func withLock<Handed, Result>(handing handed: consuming Handed, _ body: (inout Value, consuming Handed) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value, handed)
    }
}

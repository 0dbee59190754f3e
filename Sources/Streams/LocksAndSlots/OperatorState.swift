// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The state of one operator subscription (an accumulator, a counter), behind
/// an inline `SpinLock`.
///
/// Only the upstream's events touch it, and the grammar delivers those one at
/// a time, so the lock is never contended in correct use: it is there to make
/// the hand-over between the threads that deliver successive events safe and
/// visible to ThreadSanitizer, at the cost of two atomic operations.
// @unchecked: `value` is only touched inside `withLock`, under the lock.
@usableFromInline
final class OperatorState<Value>: @unchecked Sendable {
    @usableFromInline let lock = SpinLock()
    @usableFromInline @exclusivity(unchecked) var value: Value

    @inlinable
    init(_ value: sending Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access; never call out to user code from `body`
    /// other than the operator's own pure closure (a reducer, a predicate).
    @inlinable
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

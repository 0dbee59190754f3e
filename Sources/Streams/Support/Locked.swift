/// A value behind a lock, in a class so `@Sendable` closures can share it.
///
/// Not `Synchronization.Mutex`: on Linux that one waits through futex calls in
/// the uninstrumented standard library, so ThreadSanitizer cannot see it and
/// reports false races on everything it protects. `SpinLock` is built on an
/// `Atomic`, which the sanitizer understands, and is stored inline, so a
/// `Locked` costs a single allocation.
// @unchecked: `value` is only touched inside `withLock`, under the lock.
@usableFromInline
final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let lock = SpinLock()
    @usableFromInline @exclusivity(unchecked) var value: Value

    @inlinable
    init(_ value: sending Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access; never call out to user code from `body`.
    @inlinable
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a pthread mutex: the lock of the time operators.
///
/// Not `Synchronization.Mutex`, because on Linux that one locks through futex
/// calls inside the uninstrumented standard library, which ThreadSanitizer cannot
/// see: `--sanitize=thread` then reports false races on everything it protects.
/// pthread locks are intercepted by the sanitizer, so its reports stay meaningful.
// @unchecked: every access to `value` happens inside `withLock`, under the mutex.
final class PosixLock<Value: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
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

    /// Runs `body` with exclusive access to the value; never call out to other code from `body`.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

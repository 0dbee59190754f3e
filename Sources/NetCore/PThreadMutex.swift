#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a pthread mutex.
///
/// Not `Synchronization.Mutex`: on Linux that one waits through futex calls in
/// the uninstrumented standard library, so ThreadSanitizer cannot see it and
/// reports false races on what it protects; pthread locks are intercepted.
// @unchecked: `value` is only touched inside `withLock`, under the mutex.
public final class PThreadMutex<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Exclusivity is guaranteed by the mutex; the runtime check would only add sanitizer noise.
    @exclusivity(unchecked) private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

import Synchronization

/// A value behind a `Mutex`, in a class so `@Sendable` closures can share it
/// (a `Mutex` itself cannot be captured: it is not copyable).
final class Locked<Value>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access; never call out to user code from `body`.
    func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
        try mutex.withLock(body)
    }
}

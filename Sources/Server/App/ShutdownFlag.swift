import Synchronization

/// Raised once when graceful shutdown begins; read by `/ready` and the signal handler.
final class ShutdownFlag: Sendable {
    private let raised = Atomic(false)

    var isRaised: Bool { raised.load(ordering: .acquiring) }

    /// True for the first caller only.
    func raise() -> Bool {
        !raised.exchange(true, ordering: .acquiringAndReleasing)
    }
}

import Synchronization

/// Lets exactly one of several racing callers through.
final class CompletionGate: Sendable {
    private let open = Atomic(true)

    /// True for the first caller only.
    func close() -> Bool {
        open.exchange(false, ordering: .acquiringAndReleasing)
    }
}

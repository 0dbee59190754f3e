import Synchronization

/// A one-way switch: `set()` returns true only for the first caller, whichever thread wins.
final class CompletionFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    func set() -> Bool { !flag.exchange(true, ordering: .acquiringAndReleasing) }
    var isSet: Bool { flag.load(ordering: .acquiring) }
}

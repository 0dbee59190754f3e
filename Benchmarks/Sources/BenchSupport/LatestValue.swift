import Synchronization

/// Holds the last value a watcher saw; Sendable so @Sendable watch closures can write to it.
public final class LatestValue: Sendable {
    private let value = Atomic<Int>(0)

    public init() {}

    public func store(_ newValue: Int) {
        value.store(newValue, ordering: .relaxed)
    }

    public var current: Int { value.load(ordering: .relaxed) }
}

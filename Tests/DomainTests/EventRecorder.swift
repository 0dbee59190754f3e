import Streams
import Synchronization

/// Collects the events a stream delivers, from any thread.
final class EventRecorder<Element: Sendable>: Sendable {
    private let recorded = Mutex<[Event<Element>]>([])

    var events: [Event<Element>] { recorded.withLock { $0 } }
    var values: [Element] { events.compactMap(\.element) }
    var error: Error? { events.last?.error }
    var isTerminated: Bool { events.last?.isTerminal ?? false }
    var ended: Bool {
        if case .end = events.last { return true }
        return false
    }

    @discardableResult
    func watch<S: StreamType>(_ stream: S) -> Disposable where S.Element == Element {
        stream.watch { event in self.recorded.withLock { $0.append(event) } }
    }
}

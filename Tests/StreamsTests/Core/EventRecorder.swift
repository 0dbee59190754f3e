import Synchronization
import Streams

/// Collects the events a watcher receives, safely from any thread.
final class EventRecorder<Element: Sendable>: Sendable {
    private let recorded = Mutex<[Event<Element>]>([])

    var events: [Event<Element>] { recorded.withLock { $0 } }
    var values: [Element] { events.compactMap(\.element) }

    var watcher: Watcher<Element> {
        Watcher { [self] event in recorded.withLock { $0.append(event) } }
    }
}

import ConcurrencyHelpers

/// A hot stream that replays its last `bufferSize` values to every new
/// watcher, then its terminal event if it has one (ReactiveX: ReplaySubject).
///
///     ReplayStreamer(bufferSize: 2):  1--2--3--|
///     watcher (after 3):                     2-3-|
///
/// Feed it through `data(_:)`, `error(_:)`, `end()`, `event(_:)`. Deliveries
/// are serialized like `Streamer`'s.
public final class ReplayStreamer<Element: Sendable>: StreamType {
    private let core = SubjectCore<Element>()
    private let buffer: Locked<RingBuffer<Element>>
    public let bufferSize: Int

    public init(bufferSize: Int) {
        self.bufferSize = max(0, bufferSize)
        buffer = Locked(RingBuffer())
    }

    @discardableResult
    public func watch(using watcher: Watcher<Element>) -> Disposable {
        core.add(watcher) { buffer.withLock { $0.elements } }
    }

    public func data(_ value: Element) {
        core.emit(.data(value)) { _ in
            buffer.withLock { buffer in
                guard bufferSize > 0 else { return }
                if buffer.count == bufferSize { _ = buffer.popFirst() }
                buffer.append(value)
            }
        }
    }

    public func error(_ error: Error) { core.emit(.error(error)) }
    public func end() { core.emit(.end) }

    public func event(_ event: Event<Element>) {
        switch event {
        case .data(let value): data(value)
        case .error(let failure): error(failure)
        case .end: end()
        }
    }

    /// Watchers currently subscribed.
    public var watcherCount: Int { core.watcherCount }
}

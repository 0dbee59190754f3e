import Synchronization

/// A hot stream you feed by hand, multicast to every current watcher
/// (ReactiveX: PublishSubject).
///
///     streamer:  --1--2--3--|
///     watcher A: --1--2--3--|
///     watcher B (from 2nd): --2--3--|
///
/// Feed it through the watcher methods `data(_:)`, `error(_:)`, `end()`,
/// `event(_:)`. Calls from many threads are serialized: each watcher receives
/// one event at a time, in the order the calls were accepted. A watcher that
/// arrives after the end receives the terminal event at once.
public final class Streamer<Element: Sendable>: StreamType {
    let core = SubjectCore<Element>()

    public init() {}

    @discardableResult
    public func watch(using watcher: Watcher<Element>) -> Disposable {
        core.add(watcher, replaying: [])
    }

    public func data(_ value: Element) { core.emit(.data(value)) }
    public func error(_ error: Error) { core.emit(.error(error)) }
    public func end() { core.emit(.end) }
    public func event(_ event: Event<Element>) { core.emit(event) }

    /// Watchers currently subscribed.
    public var watcherCount: Int { core.watcherCount }
}

/// The shared machinery of the subjects: the watcher list, the terminal event,
/// and serialized emission.
///
/// Emission is serialized without holding a lock while calling out: a call that
/// arrives while another thread is delivering is queued and delivered by that
/// thread, in order, so a watcher that feeds its own subject back cannot deadlock.
final class SubjectCore<Element: Sendable>: Sendable {
    private struct State {
        var watchers: [(id: UInt64, watcher: Watcher<Element>)] = []
        var nextID: UInt64 = 0
        var terminal: Event<Element>?
        var emitting = false
        var queued: [Event<Element>] = []
    }

    private let state = Mutex(State())

    var watcherCount: Int { state.withLock { $0.watchers.count } }

    /// Adds a watcher after delivering `replaying` to it; a terminated subject replays its terminal event.
    func add(_ watcher: Watcher<Element>, replaying: @autoclosure () -> [Element]) -> Disposable {
        let (fed, subscription) = watcher.beginSubscription()
        let outcome = state.withLock { state -> (id: UInt64?, replay: [Element], terminal: Event<Element>?) in
            let replay = replaying()
            if let terminal = state.terminal { return (nil, replay, terminal) }
            let id = state.nextID
            state.nextID += 1
            state.watchers.append((id, fed))
            return (id, replay, nil)
        }
        for value in outcome.replay { fed.data(value) }
        if let terminal = outcome.terminal { fed.event(terminal) }
        if let id = outcome.id {
            subscription.appendAction { [weak self] in self?.remove(id) }
        }
        return subscription
    }

    private func remove(_ id: UInt64) {
        state.withLock { state in
            if let index = state.watchers.firstIndex(where: { $0.id == id }) {
                state.watchers.remove(at: index)
            }
        }
    }

    /// Delivers `event` to every watcher, or queues it for the thread already delivering.
    /// `record` runs under the lock when the event is accepted (subjects remember values there).
    func emit(_ event: Event<Element>, record: ((Event<Element>) -> Void)? = nil) {
        var next: (event: Event<Element>, watchers: [(id: UInt64, watcher: Watcher<Element>)])? = state.withLock { state in
            guard state.terminal == nil else { return nil }
            record?(event)
            if event.isTerminal { state.terminal = event }
            if state.emitting {
                state.queued.append(event)
                return nil
            }
            state.emitting = true
            let watchers = state.watchers
            if event.isTerminal { state.watchers = [] }
            return (event, watchers)
        }
        while let (event, watchers) = next {
            switch event {
            case .data(let value): for entry in watchers { entry.watcher.data(value) }
            case .error(let error): for entry in watchers { entry.watcher.error(error) }
            case .end: for entry in watchers { entry.watcher.end() }
            }
            next = state.withLock { state in
                guard !state.queued.isEmpty else {
                    state.emitting = false
                    return nil
                }
                let queuedEvent = state.queued.removeFirst()
                let watchers = state.watchers
                if queuedEvent.isTerminal { state.watchers = [] }
                return (queuedEvent, watchers)
            }
        }
    }
}

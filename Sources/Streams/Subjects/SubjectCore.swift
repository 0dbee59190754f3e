// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// The shared machinery of the subjects: the watcher list, the terminal event,
/// and serialized emission.
///
/// Emission is serialized without holding a lock while calling out: a call that
/// arrives while another thread is delivering is queued and delivered by that
/// thread, in order, so a watcher that feeds its own subject back cannot deadlock.
/// A new watcher joins through the same queue: it gets its replay before any
/// live event and never concurrently with one.
final class SubjectCore<Element: Sendable>: Sendable {
    private typealias Entry = (id: UInt64, watcher: Watcher<Element>)

    private enum Step {
        case deliver(Event<Element>, to: [Entry])
        case join(Entry, replay: [Element], terminal: Event<Element>?)
    }

    private enum Queued {
        case event(Event<Element>)
        case join(Entry, replay: [Element], terminal: Event<Element>?)
    }

    private struct State {
        var watchers: [Entry] = []
        var nextID: UInt64 = 0
        var terminal: Event<Element>?
        var delivering = false
        var queue = RingBuffer<Queued>()
    }

    private let state = Locked(State())

    var watcherCount: Int { state.withLock { $0.watchers.count } }

    /// Adds a watcher after delivering `replaying` to it; a terminated subject then sends its terminal event.
    /// `replaying` runs under the lock, so it sees exactly the events accepted before this watcher; it is
    /// told whether the subject has terminated, since what a subject replays then is its own rule (see
    /// the table in the catalogue's "Subjects and sharing": a `ValueStreamer` replays nothing, a
    /// `ReplayStreamer` its buffer).
    func add(_ watcher: Watcher<Element>, replaying: (_ terminated: Bool) -> [Element]) -> Disposable {
        let (fed, subscription) = watcher.beginSubscription()
        let (id, joinNow) = state.withLock { state -> (UInt64, Step?) in
            let id = state.nextID
            state.nextID += 1
            let entry = (id: id, watcher: fed)
            let replay = replaying(state.terminal != nil)
            if state.delivering {
                state.queue.append(.join(entry, replay: replay, terminal: state.terminal))
                return (id, nil)
            }
            state.delivering = true
            return (id, .join(entry, replay: replay, terminal: state.terminal))
        }
        subscription.appendAction { [weak self] in self?.remove(id) }
        if let joinNow { run(joinNow) }
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
    func emit(_ event: Event<Element>, record: (Event<Element>) -> Void = { _ in }) {
        let watchers = state.withLock { state -> [Entry]? in
            guard state.terminal == nil else { return nil }
            record(event)
            if event.isTerminal { state.terminal = event }
            if state.delivering {
                state.queue.append(.event(event))
                return nil
            }
            state.delivering = true
            let watchers = state.watchers
            if event.isTerminal { state.watchers = [] }
            return watchers
        }
        if let watchers { run(.deliver(event, to: watchers)) }
    }

    /// Performs `first`, then everything queued meanwhile, then gives up the delivering role.
    private func run(_ first: Step) {
        var step: Step? = first
        while let current = step {
            var joined: Entry?
            switch current {
            case .deliver(let event, let watchers):
                switch event {
                case .data(let value):
                    // The local `watchers` array keeps every watcher alive for the whole loop, so each is
                    // called through a borrowed reference: copying the entries out retained and released
                    // every watcher once per value, nearly half the cost of a delivery.
                    watchers.withUnsafeBufferPointer { entries in
                        for index in entries.indices {
                            Unmanaged.passUnretained(entries[index].watcher)._withUnsafeGuaranteedRef { $0.data(value) }
                        }
                    }
                case .error(let error): for entry in watchers { entry.watcher.error(error) }
                case .end: for entry in watchers { entry.watcher.end() }
                }
            case .join(let entry, let replay, let terminal):
                for value in replay { entry.watcher.data(value) }
                if let terminal { entry.watcher.event(terminal) } else { joined = entry }
            }
            step = state.withLock { state -> Step? in
                // Checked under the lock: a disposal after this point finds the entry and removes it.
                if let joined, !joined.watcher.isStopped { state.watchers.append(joined) }
                switch state.queue.popFirst() {
                case nil:
                    state.delivering = false
                    return nil
                case .event(let event):
                    let watchers = state.watchers
                    if event.isTerminal { state.watchers = [] }
                    return .deliver(event, to: watchers)
                case .join(let entry, let replay, let terminal):
                    return .join(entry, replay: replay, terminal: terminal)
                }
            }
        }
    }
}

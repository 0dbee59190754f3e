import StreamServiceConcurrency

/// The state of a time-based operator together with the one queue through which
/// it talks to its downstream watcher.
///
/// Upstream events and timer callbacks arrive on different threads. Each of them
/// changes the state and queues its output in one critical section, so outputs
/// leave in the order the changes happened. The queue is drained outside the lock
/// by one thread at a time: the watcher never receives two events at once, and a
/// watcher that calls back into the operator (or disposes it) cannot deadlock.
final class TimedOperatorCell<State: Sendable, Output: Sendable>: Sendable {
    /// The events one critical section wants delivered; nothing after a terminal one.
    struct Outbox {
        fileprivate var events: [Event<Output>] = []
        fileprivate var isTerminated = false

        mutating func data(_ value: Output) { event(.data(value)) }
        mutating func error(_ error: Error) { event(.error(error)) }
        mutating func end() { event(.end) }

        mutating func event(_ event: Event<Output>) {
            guard !isTerminated else { return }
            isTerminated = event.isTerminal
            events.append(event)
        }
    }

    private struct Guarded: Sendable {
        var state: State
        var queued: [Event<Output>] = []
        var draining = false
        /// A terminal event was queued or the operator was shut down: nothing more goes out.
        var finished = false
    }

    private let guarded: Locked<Guarded>
    private let downstream: Watcher<Output>

    init(_ initial: State, downstream: Watcher<Output>) {
        self.guarded = Locked(Guarded(state: initial))
        self.downstream = downstream
    }

    /// Runs `body` on the state under the lock, then delivers what it queued.
    /// Returns `nil` without running `body` once the operator has finished.
    @discardableResult
    func update<Result: Sendable>(_ body: (inout State, inout Outbox) -> Result) -> Result? {
        let (result, mustDrain) = guarded.withLock { guarded -> (Result?, Bool) in
            guard !guarded.finished else { return (nil, false) }
            var outbox = Outbox()
            let result = body(&guarded.state, &outbox)
            guard !outbox.events.isEmpty else { return (result, false) }
            guarded.queued.append(contentsOf: outbox.events)
            guarded.finished = outbox.isTerminated
            guard !guarded.draining else { return (result, false) }
            guarded.draining = true
            return (result, true)
        }
        if mustDrain { drain() }
        return result
    }

    /// Stops all further output and drops what is still queued (the subscription was disposed).
    func shutDown() {
        guarded.withLock { guarded in
            guarded.finished = true
            guarded.queued = []
        }
    }

    private func drain() {
        while let batch = takeQueued() {
            for event in batch { downstream.event(event) }
        }
    }

    private func takeQueued() -> [Event<Output>]? {
        guarded.withLock { guarded -> [Event<Output>]? in
            guard !guarded.queued.isEmpty else {
                guarded.draining = false
                return nil
            }
            defer { guarded.queued = [] }
            return guarded.queued
        }
    }
}

/// Delivers the events of an operator with several sources (merge, zip,
/// combineLatest, redirect, …) to one watcher, one at a time, in the order
/// they were decided.
///
/// The operator's state is updated under the same lock that orders the
/// outgoing events, but events are delivered outside it: a thread that finds
/// another delivering leaves its events in the outbox and returns, and the
/// delivering thread sends them on. So no lock is held across user code and a
/// watcher that feeds one of the sources back cannot deadlock.
final class SerializedSink<State, Output: Sendable>: Sendable {
    private struct Inner {
        var state: State
        var outbox = Outbox<Output>()
        var delivering = false
    }

    private let inner: Locked<Inner>
    let downstream: Watcher<Output>

    init(_ state: sending State, downstream: Watcher<Output>) {
        inner = Locked(Inner(state: state))
        self.downstream = downstream
    }

    /// Updates the state and queues events under the lock, then delivers the queue
    /// unless another thread is already doing so.
    @discardableResult
    func update<Result: Sendable>(_ body: (inout State, inout Outbox<Output>) -> Result) -> Result {
        let (result, deliverHere) = inner.withLock { inner -> (Result, Bool) in
            let result = body(&inner.state, &inner.outbox)
            guard !inner.delivering, !inner.outbox.isEmpty else { return (result, false) }
            inner.delivering = true
            return (result, true)
        }
        if deliverHere { deliver() }
        return result
    }

    /// Reads the state under the lock.
    func read<Result: Sendable>(_ body: (State) -> Result) -> Result {
        inner.withLock { body($0.state) }
    }

    private func deliver() {
        while let event = inner.withLock({ inner -> Event<Output>? in
            if let event = inner.outbox.next() { return event }
            inner.delivering = false
            return nil
        }) {
            downstream.event(event)
        }
    }
}

/// The events an operator has decided to send, in order; nothing is queued after a terminal one.
struct Outbox<Element> {
    private var queue = RingBuffer<Event<Element>>()
    private(set) var isTerminated = false

    var isEmpty: Bool { queue.isEmpty }

    mutating func data(_ value: Element) {
        guard !isTerminated else { return }
        queue.append(.data(value))
    }

    mutating func error(_ error: Error) {
        guard !isTerminated else { return }
        isTerminated = true
        queue.append(.error(error))
    }

    mutating func end() {
        guard !isTerminated else { return }
        isTerminated = true
        queue.append(.end)
    }

    mutating func event(_ event: Event<Element>) {
        switch event {
        case .data(let value): data(value)
        case .error(let failure): error(failure)
        case .end: end()
        }
    }

    fileprivate mutating func next() -> Event<Element>? { queue.popFirst() }
}

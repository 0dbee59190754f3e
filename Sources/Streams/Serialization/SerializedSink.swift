// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The one serialising cell of the library: delivers the events of an operator whose
/// events come from several threads (merge, zip, combineLatest, redirect, and the time
/// operators, whose timers fire on the scheduler's threads while values arrive on the
/// source's) to one watcher, one at a time, in the order they were decided.
///
/// The operator's state is updated under the same lock that orders the
/// outgoing events, but events are delivered outside it: a thread that finds
/// another delivering leaves its events in the outbox and returns, and the
/// delivering thread sends them on. So no lock is held across user code and a
/// watcher that feeds one of the sources back (or disposes the operator) cannot deadlock.
///
/// The lock is an inline `SpinLock`, not a `Locked` mutex: its sections are a few field
/// updates, and the mutex cost 2 allocations more per sink (object and `pthread_mutex_t`)
/// and a call pair per update.
///
/// Not final: an operator's stage may be a sink itself (`Redirection`), saving the sink's own
/// allocation per subscription.
// @unchecked: `inner` is only touched between `lock.lock()` and `lock.unlock()`.
@usableFromInline
class SerializedSink<State, Output: Sendable>: @unchecked Sendable {
    @usableFromInline
    struct Inner {
        @usableFromInline var state: State
        @usableFromInline var outbox = Outbox<Output>()
        @usableFromInline var delivering = false

        @inlinable
        init(state: State) { self.state = state }
    }

    @usableFromInline let lock = SpinLock()
    @usableFromInline @exclusivity(unchecked) var inner: Inner
    @usableFromInline let downstream: Watcher<Output>

    @inlinable
    init(_ state: sending State, downstream: Watcher<Output>) {
        inner = Inner(state: state)
        self.downstream = downstream
    }

    /// Runs `body` on the state under the lock.
    @inlinable
    final func withLock<Result>(_ body: (inout Inner) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&inner)
    }

    /// Updates the state and queues events under the lock, then delivers the queue
    /// unless another thread is already doing so.
    @inlinable @discardableResult
    final func update<Result: Sendable>(_ body: (inout State, inout Outbox<Output>) -> Result) -> Result {
        changeThenDeliver { inner in body(&inner.state, &inner.outbox) }
    }

    /// `update`, for an operator that stops working once its output has terminated (the time
    /// operators: no timer is re-armed after the end): once a terminal event was decided or
    /// `shutDown()` was called, returns `nil` without running `body`.
    @inlinable @discardableResult
    final func updateUnlessFinished<Result: Sendable>(_ body: (inout State, inout Outbox<Output>) -> Result) -> Result? {
        changeThenDeliver { inner in inner.outbox.isTerminated ? nil : body(&inner.state, &inner.outbox) }
    }

    /// Runs `change` under the lock, takes the delivering role if the outbox has an event and
    /// nobody delivers, and after the lock delivers what is queued.
    @inlinable
    final func changeThenDeliver<Result>(_ change: (inout Inner) -> Result) -> Result {
        var first: Event<Output>?
        let result = withLock { inner -> Result in
            let result = change(&inner)
            if !inner.delivering, let event = inner.outbox.next() {
                inner.delivering = true
                first = event
            }
            return result
        }
        if let first = first.take() { deliver(first) }
        return result
    }

    /// Stops all further output and drops what is still queued (the subscription was disposed):
    /// a delivery in progress on another thread ends after its current event.
    @inlinable
    final func shutDown() {
        withLock { inner in
            inner.outbox = Outbox()
            inner.outbox.isTerminated = true
        }
    }

    /// Reads the state under the lock.
    @inlinable
    final func read<Result: Sendable>(_ body: (State) -> Result) -> Result {
        withLock { body($0.state) }
    }

    /// Delivers `first`, then whatever was queued meanwhile, then gives up the delivering role.
    @inlinable
    final func deliver(_ first: consuming Event<Output>) {
        // Each event moved on, not copied: a copy is a retain and a release per reference its value
        // holds, and `redirect`'s events were copied here twice each (184 copies a `/users`
        // request, Benchmarks/README.md, Ledger).
        var next: Event<Output>? = consume first
        while let event = next.take() {
            switch consume event {
            case .data(let value): downstream.data(value)
            case .error(let error): downstream.error(error)
            case .end: downstream.end()
            }
            next = withLock { inner -> Event<Output>? in
                if let event = inner.outbox.next() { return event }
                inner.delivering = false
                return nil
            }
        }
    }
}

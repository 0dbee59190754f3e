// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What a `DeadlineStage` does when its deadline passes.
enum DeadlineExpiry<Element: Sendable>: Sendable {
    /// `timeout`: each value moves the deadline; passing it fails with what `failure` makes
    /// (nil: `StreamTimeoutError`; a closure capturing the due time would be an allocation per
    /// operator built).
    case silence(failure: (@Sendable () -> Error)?)
    /// `take(for:)`: the deadline is fixed at the subscription; passing it sends `last` (when
    /// given) and ends.
    case span(last: Element?)
}

/// One `timeout` or `take(for:)` subscription: the deadline, the one pending timer, and the
/// upstream's subscription, which the stage disposes when the deadline passes, before it fails
/// or ends the downstream.
///
/// Both operators hand their downstream on (`oneToOne`): the watcher feeds the downstream
/// directly and this stage stands for the downstream when the upstream's subscription is
/// disposed (`stop`), cancelling the timer. The state lives here under an inline lock, so a
/// subscription costs this object and the watcher besides the timer, and no serialized sink,
/// disposable or subscription of its own (`take(for:last:)` is one stage, not `takeUntil(timer)`
/// + `concat`) (the figure: Benchmarks/README.md).
///
/// Events are delivered one at a time: one decided while another is on its way downstream (a
/// deadline found meanwhile, or a watcher feeding the source back from inside `data`) waits in
/// the outbox, and the delivering call sends it on after, in a loop rather than by recursion.
// @unchecked: `state` is only touched between `lock.lock()` and `lock.unlock()`.
final class DeadlineStage<Element: Sendable>: StoppableWatcher, @unchecked Sendable {
    private struct State {
        /// When the stage expires, on the scheduler's clock.
        var deadline: Duration
        /// The pending timer, dropped when it fires or the stage closes.
        var timer: Disposable?
        /// Counts arming attempts, so an arm that lost a race with the next one drops its timer.
        var armed: UInt64 = 0
        /// Nothing more is accepted: the source finished, the deadline passed, or the subscription was disposed.
        var closed = false
        /// The deadline passed: the upstream's subscription is disposed without stopping the downstream.
        var expired = false
        /// An event is on its way downstream; those decided meanwhile wait in `waiting`'s outbox.
        var delivering = false
        /// Made when first needed: an event decided while another is delivered, or `take(for:)`'s last value.
        var waiting: DeadlineWaiting<Element>?
        /// The upstream's subscription, disposed when the deadline passes. It leads back to this
        /// stage through the watchers, a cycle that closing the stage breaks.
        var upstream: Disposable?
    }

    private let lock = SpinLock()
    @exclusivity(unchecked) private var state: State
    let scheduler: any Scheduler
    let dueTime: Duration
    /// Whether a value moves the deadline (`timeout`), read on every value.
    let movesDeadline: Bool
    /// `timeout`'s error maker (see `DeadlineExpiry.silence`).
    let failure: (@Sendable () -> Error)?
    let downstream: Watcher<Element>

    init(dueTime: Duration, scheduler: any Scheduler, expiry: DeadlineExpiry<Element>, downstream: Watcher<Element>) {
        // The expiry is kept as its parts, not as the generic enum: a stage's deinit is not
        // specialized, and a stored `DeadlineExpiry<Element>` made it look the enum's metadata up at
        // run time, once per `timeout` subscription (the figure: Benchmarks/README.md). For the
        // same reason no stored property's layout depends on `Element` (see `DeadlineWaiting`).
        var last: Element?
        switch expiry {
        case .silence(let failure):
            movesDeadline = true
            self.failure = failure
        case .span(let value):
            movesDeadline = false
            failure = nil
            last = value
        }
        state = State(deadline: scheduler.now + dueTime, waiting: last.map { DeadlineWaiting(last: $0) })
        self.scheduler = scheduler
        self.dueTime = dueTime
        self.downstream = downstream
    }

    /// The upstream's subscription, once its `watch` returned; disposed at once if the deadline passed meanwhile.
    func attach(_ upstream: Disposable) {
        lock.lock()
        guard !state.closed else {
            let dispose = state.expired
            lock.unlock()
            if dispose { upstream.dispose() }
            return
        }
        state.upstream = upstream
        lock.unlock()
    }

    /// A value passes on (and moves a `timeout`'s deadline).
    func receive(_ value: Element) throws {
        let deadline = movesDeadline ? scheduler.now + dueTime : nil
        lock.lock()
        guard !state.closed else { return lock.unlock() }
        if let deadline { state.deadline = deadline }
        if state.delivering {
            waiting().outbox.data(value)
            return lock.unlock()
        }
        state.delivering = true
        lock.unlock()
        try deliver(.data(value))
    }

    /// The source's end or error passes on and cancels the timer.
    func finish(_ event: Event<Element>) {
        lock.lock()
        guard !state.closed else { return lock.unlock() }
        send(event)
    }

    /// The upstream's subscription was disposed: the timer is cancelled and the downstream stops,
    /// unless this is the stage disposing it at the deadline, whose ending is on its way downstream.
    func stop() {
        lock.lock()
        if state.expired { return lock.unlock() }
        let (timer, upstream) = state.closed ? (nil, nil) : close()
        state.waiting?.outbox = Outbox()
        lock.unlock()
        timer?.dispose()
        withExtendedLifetime(upstream) {}   // the last reference goes here, outside the lock
        downstream.stop()
    }

    /// Arms the one timer to fire after `delay`.
    func arm(after delay: Duration) {
        lock.lock()
        state.armed &+= 1
        let attempt = state.armed
        lock.unlock()
        let timer = scheduler.schedule(after: delay) { [self] in expire() }
        lock.lock()
        // Closed meanwhile (cancel it), or the timer fired and armed the next already (keep that one).
        guard !state.closed else {
            lock.unlock()
            return timer.dispose()
        }
        if state.armed == attempt { state.timer = timer }
        lock.unlock()
    }

    /// The timer fired: the expiry if the deadline has passed, else a wait for the rest.
    private func expire() {
        lock.lock()
        guard !state.closed else { return lock.unlock() }
        state.timer = nil
        let now = scheduler.now
        guard now >= state.deadline else {
            let rest = state.deadline - now
            lock.unlock()
            return arm(after: rest)
        }
        state.expired = true
        if movesDeadline {
            send(.error(failure?() ?? StreamTimeoutError(timeout: dueTime)))
        } else {
            send(.end, after: state.waiting?.last.take())
        }
    }

    /// Called holding the lock, which it gives up: closes the stage, cancels the timer, disposes
    /// the upstream at the deadline (releases it otherwise), then delivers `last` (if any) and
    /// `terminal`, or queues them behind the event on its way downstream.
    private func send(_ terminal: Event<Element>, after last: Element? = nil) {
        let (timer, upstream) = close()
        let deliverNow = !state.delivering
        if deliverNow {
            state.delivering = true
        } else {
            let waiting = waiting()
            if let last { waiting.outbox.data(last) }
            waiting.outbox.event(terminal)
        }
        let expired = state.expired
        lock.unlock()
        timer?.dispose()
        if expired { upstream?.dispose() } else { withExtendedLifetime(upstream) {} }
        guard deliverNow else { return }
        // Closed: no value can be queued behind `last` while it is delivered.
        if let last { downstream.data(last) }
        switch terminal {
        case .data: break
        case .error(let error): downstream.error(error)
        case .end: downstream.end()
        }
    }

    /// Delivers `first`, then what was queued meanwhile, then gives up the delivering role. A
    /// throw from below (a watcher further down failing) drops the rest: that failure disposes
    /// the upstream and ends the downstream.
    private func deliver(_ first: Event<Element>) throws {
        var next: Event<Element>? = first
        while let event = next {
            switch event {
            case .data(let value):
                do {
                    try downstream.handOnData(value)
                } catch {
                    lock.lock()
                    state.waiting?.outbox = Outbox()
                    let (timer, upstream) = close()
                    lock.unlock()
                    timer?.dispose()
                    withExtendedLifetime(upstream) {}
                    throw error
                }
            case .error(let error): downstream.error(error)
            case .end: downstream.end()
            }
            lock.lock()
            next = state.waiting?.outbox.next()
            if next == nil { state.delivering = false }
            lock.unlock()
        }
    }

    /// Called holding the lock: the waiting room, made on first use.
    private func waiting() -> DeadlineWaiting<Element> {
        if let waiting = state.waiting { return waiting }
        let waiting = DeadlineWaiting<Element>(last: nil)
        state.waiting = waiting
        return waiting
    }

    /// Called holding the lock: nothing more is accepted; returns the timer to cancel and the
    /// upstream's subscription, to be released (or disposed) outside the lock.
    private func close() -> (timer: Disposable?, upstream: Disposable?) {
        state.closed = true
        return (state.timer.take(), state.upstream.take())
    }
}

/// A `DeadlineStage`'s events decided while another is on its way downstream, and `take(for:)`'s
/// last value. In an object of its own, made only when needed (most subscriptions deliver each
/// event at once), so that the stage's state is one reference whatever `Element` is: the stage's
/// deinit, never specialised, then destroys it without looking up the state's generic metadata at
/// run time, as it did once per `timeout` subscription while the outbox and the value lay inline.
// @unchecked: only touched under its stage's lock.
final class DeadlineWaiting<Element: Sendable>: @unchecked Sendable {
    @exclusivity(unchecked) var outbox = Outbox<Element>()
    /// `take(for:)`'s last value, sent before the end when the deadline passes.
    @exclusivity(unchecked) var last: Element?

    init(last: Element?) {
        self.last = last
    }
}

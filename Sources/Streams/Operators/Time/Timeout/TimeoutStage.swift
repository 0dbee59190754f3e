/// One `timeout` subscription: the deadline, the one pending timer, and the upstream's
/// subscription, which the timeout disposes before it fails the downstream.
///
/// `timeout` hands its downstream on (`oneToOne`): its watcher feeds the downstream directly and
/// this stage stands for the downstream when the upstream's subscription is disposed (`stop`),
/// cancelling the timer. The state lives here under an inline lock, so a subscription costs this
/// object and the watcher besides the timer, where a serialized sink, a disposable with its
/// closure and a subscription of its own took 3 allocations more per subscription.
///
/// Events are delivered one at a time: one decided while another is on its way downstream (a
/// timeout found meanwhile, or a watcher feeding the source back from inside `data`) waits in
/// the outbox, and the delivering call sends it on after, in a loop rather than by recursion.
// @unchecked: `state` is only touched between `lock.lock()` and `lock.unlock()`.
final class TimeoutStage<Element: Sendable>: StoppableWatcher, @unchecked Sendable {
    private struct State {
        /// When the source's silence becomes a timeout, on the scheduler's clock.
        var deadline: Duration
        /// The pending timer, dropped when it fires or the stage closes.
        var timer: Disposable?
        /// Counts arming attempts, so an arm that lost a race with the next one drops its timer.
        var armed: UInt64 = 0
        /// Nothing more is accepted: the source finished, the timeout fired, or the subscription was disposed.
        var closed = false
        /// The timeout fired: the upstream's subscription is disposed without stopping the downstream.
        var timedOut = false
        /// An event is on its way downstream; those decided meanwhile wait in `outbox`.
        var delivering = false
        var outbox = Outbox<Element>()
        /// The upstream's subscription, disposed when the timeout fires. It leads back to this
        /// stage through the watchers, a cycle that closing the stage breaks.
        var upstream: Disposable?
    }

    private let lock = SpinLock()
    @exclusivity(unchecked) private var state: State
    let scheduler: any Scheduler
    let dueTime: Duration
    /// Makes the error; nil for `StreamTimeoutError` (a closure capturing `dueTime` would be an
    /// allocation per operator built).
    let failure: (@Sendable () -> Error)?
    let downstream: Watcher<Element>

    init(dueTime: Duration, scheduler: any Scheduler, failure: (@Sendable () -> Error)?, downstream: Watcher<Element>) {
        self.state = State(deadline: scheduler.now + dueTime)
        self.scheduler = scheduler
        self.dueTime = dueTime
        self.failure = failure
        self.downstream = downstream
    }

    /// The upstream's subscription, once its `watch` returned; disposed at once if the timeout fired meanwhile.
    func attach(_ upstream: Disposable) {
        lock.lock()
        guard !state.closed else {
            let dispose = state.timedOut
            lock.unlock()
            if dispose { upstream.dispose() }
            return
        }
        state.upstream = upstream
        lock.unlock()
    }

    /// A value moves the deadline and passes on.
    func receive(_ value: Element) throws {
        let deadline = scheduler.now + dueTime
        lock.lock()
        guard !state.closed else { return lock.unlock() }
        state.deadline = deadline
        if state.delivering {
            state.outbox.data(value)
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
    /// unless this is the timeout disposing it, whose error is on its way downstream.
    func stop() {
        lock.lock()
        if state.timedOut { return lock.unlock() }
        let (timer, upstream) = state.closed ? (nil, nil) : close()
        state.outbox = Outbox()
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

    /// The timer fired: a timeout if the deadline has passed, else a wait for the rest.
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
        state.timedOut = true
        send(.error(failure?() ?? StreamTimeoutError(timeout: dueTime)))
    }

    /// Called holding the lock, which it gives up: closes the stage, cancels the timer, disposes
    /// the upstream on a timeout (releases it otherwise), then delivers `terminal`, or queues it
    /// behind the event on its way downstream.
    private func send(_ terminal: Event<Element>) {
        let (timer, upstream) = close()
        let deliverNow = !state.delivering
        if deliverNow { state.delivering = true } else { state.outbox.event(terminal) }
        let timedOut = state.timedOut
        lock.unlock()
        timer?.dispose()
        if timedOut { upstream?.dispose() } else { withExtendedLifetime(upstream) {} }
        guard deliverNow else { return }
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
                    state.outbox = Outbox()
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
            next = state.outbox.next()
            if next == nil { state.delivering = false }
            lock.unlock()
        }
    }

    /// Called holding the lock: nothing more is accepted; returns the timer to cancel and the
    /// upstream's subscription, to be released (or disposed) outside the lock.
    private func close() -> (timer: Disposable?, upstream: Disposable?) {
        state.closed = true
        return (state.timer.take(), state.upstream.take())
    }
}

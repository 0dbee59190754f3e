/// One `timeout` subscription: the deadline, the one pending timer, and the sink that
/// orders the source's events and the timer's error.
///
/// The watcher's closures and the timer's closure capture only this object, and at most
/// one timer is pending (a value only moves the deadline; a timer that fires early arms
/// the next for the rest), so a subscription costs this object, its sink and lock, the
/// watcher and the disposable: 5 allocations besides the timer, where a generic cell, a
/// serial slot and a closure per callback took 11, and arrays for every event (callgrind,
/// `/users`, 33 upstream calls a request).
final class TimeoutStage<Element: Sendable>: Sendable {
    struct State: Sendable {
        /// When the source's silence becomes a timeout, on the scheduler's clock.
        var deadline: Duration
        /// The pending timer, dropped when it fires or the stage stops.
        var timer: Disposable?
        /// Counts arming attempts, so an arm that lost a race with the next one drops its timer.
        var armed: UInt64 = 0
        /// The source finished, the timeout fired, or the subscription was disposed.
        var stopped = false
    }

    let sink: SerializedSink<State, Element>
    let scheduler: any Scheduler
    let dueTime: Duration
    let failure: @Sendable () -> Error

    init(dueTime: Duration, scheduler: any Scheduler, failure: @escaping @Sendable () -> Error, downstream: Watcher<Element>) {
        self.sink = SerializedSink(State(deadline: scheduler.now + dueTime), downstream: downstream)
        self.scheduler = scheduler
        self.dueTime = dueTime
        self.failure = failure
    }

    /// A value moves the deadline and passes on.
    func receive(_ value: Element) {
        sink.update { state, outbox in
            guard !state.stopped else { return }
            state.deadline = scheduler.now + dueTime
            outbox.data(value)
        }
    }

    /// The source's end or error passes on and cancels the timer.
    func finish(_ event: Event<Element>) {
        let timer = sink.update { state, outbox -> Disposable? in
            guard !state.stopped else { return nil }
            state.stopped = true
            outbox.event(event)
            defer { state.timer = nil }
            return state.timer
        }
        timer?.dispose()
    }

    /// The subscription was disposed: nothing more goes out, the timer is cancelled.
    func dispose() {
        let timer = sink.update { state, _ -> Disposable? in
            state.stopped = true
            defer { state.timer = nil }
            return state.timer
        }
        timer?.dispose()
    }

    /// Arms the one timer to fire after `delay`.
    func arm(after delay: Duration) {
        let attempt = sink.update { state, _ -> UInt64 in
            state.armed &+= 1
            return state.armed
        }
        let timer = scheduler.schedule(after: delay) { [self] in expire() }
        let unwanted = sink.update { state, _ -> Disposable? in
            // Stopped meanwhile (cancel it), or the timer fired and armed the next already (keep that one).
            guard !state.stopped else { return timer }
            if state.armed == attempt { state.timer = timer }
            return nil
        }
        unwanted?.dispose()
    }

    /// The timer fired: a timeout if the deadline has passed, else a wait for the rest.
    private func expire() {
        let rest = sink.update { state, outbox -> Duration? in
            guard !state.stopped else { return nil }
            state.timer = nil
            let now = scheduler.now
            guard now >= state.deadline else { return state.deadline - now }
            state.stopped = true
            outbox.error(failure())
            return nil
        }
        if let rest { arm(after: rest) }
    }
}

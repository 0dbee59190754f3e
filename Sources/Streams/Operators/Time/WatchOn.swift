import ConcurrencyHelpers

extension StreamType {
    /// Starts the subscription on `scheduler`: the source's subscribe work (and
    /// whatever it emits synchronously) runs there instead of on the caller's thread.
    ///
    ///     watch(on: S):   the caller returns at once; the source is watched from S
    ///
    /// Disposing happens at once on the disposing thread, not on `scheduler`: a
    /// subscription that has not started yet is cancelled, a started one is disposed
    /// right away, so disposal stays prompt even when the scheduler is busy.
    /// Events are not moved: use `observe(on:)` for that. ReactiveX: `subscribeOn`.
    public func watch(on scheduler: any Scheduler) -> DataStream<Element> {
        DataStream { downstream in
            let started = StartedSubscription()
            let job = TimerSlot()
            job.start(1, on: scheduler, after: .zero) {
                started.set(watch(using: downstream))
            }
            return Disposable {
                job.close()
                started.dispose()
            }
        }
    }
}

/// Holds a subscription that starts later; disposing before it arrives disposes it on arrival.
private final class StartedSubscription: Sendable {
    private let state = Locked<(subscription: Disposable?, disposed: Bool)>((nil, false))

    func set(_ subscription: Disposable) {
        let disposeNow = state.withLock { state -> Bool in
            if state.disposed { return true }
            state.subscription = subscription
            return false
        }
        if disposeNow { subscription.dispose() }
    }

    func dispose() {
        let subscription = state.withLock { state -> Disposable? in
            state.disposed = true
            defer { state.subscription = nil }
            return state.subscription
        }
        subscription?.dispose()
    }
}

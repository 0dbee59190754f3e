extension StreamType {
    /// Fails with `StreamTimeoutError` when no value (or end) arrives within
    /// `dueTime` of the subscription or of the previous value, and disposes the
    /// source. Each value restarts the wait.
    ///
    ///     source:              --a--b-------c|
    ///     timeout(4 ticks):    --a--b---#             # = StreamTimeoutError
    ///
    /// For a one-shot request stream this bounds the whole request; for a stream of
    /// many values it bounds each gap (ReactiveX semantics). A value only moves the
    /// deadline; the one pending timer, when it fires for a moved deadline, waits
    /// again for the rest, so a busy stream does not arm a timer per value.
    public func timeout(_ dueTime: Duration, scheduler: any Scheduler) -> DataStream<Element> {
        timeout(dueTime, scheduler: scheduler, failure: { StreamTimeoutError(timeout: dueTime) })
    }

    /// `timeout` failing with what `failure` makes.
    func timeout(_ dueTime: Duration, scheduler: any Scheduler, failure: @escaping @Sendable () -> Error) -> DataStream<Element> {
        DataStream { downstream in
            let cell = TimedOperatorCell(
                TimeoutState(deadline: scheduler.now + dueTime),
                downstream: downstream
            )
            let timer = SerialDisposable()
            @Sendable func expire(_ generation: UInt64) {
                let rest = cell.update { state, outbox -> (generation: UInt64, delay: Duration)? in
                    guard state.generation == generation else { return nil }
                    let now = scheduler.now
                    guard now >= state.deadline else {
                        state.generation += 1
                        return (state.generation, state.deadline - now)
                    }
                    outbox.error(failure())
                    return nil
                }
                if let rest = rest ?? nil {
                    timer.schedule(rest.generation, on: scheduler, after: rest.delay) { expire(rest.generation) }
                }
            }
            timer.schedule(1, on: scheduler, after: dueTime) { expire(1) }
            let upstream = watch { event in
                cell.update { state, outbox in
                    if case .data = event { state.deadline = scheduler.now + dueTime }
                    outbox.event(event)
                }
            }
            return Disposable {
                upstream.dispose()
                timer.dispose()
                cell.shutDown()
            }
        }
    }
}

private struct TimeoutState: Sendable {
    /// When the source's silence becomes a timeout, on the scheduler's clock.
    var deadline: Duration
    /// Identifies the pending timer, so a superseded one does nothing.
    var generation: UInt64 = 1
}

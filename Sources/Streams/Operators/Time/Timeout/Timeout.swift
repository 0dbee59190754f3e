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
        timeout(dueTime, scheduler: scheduler, failure: nil)
    }

    /// `timeout` failing with what `failure` makes (nil: `StreamTimeoutError`). It hands its
    /// downstream on (`oneToOne`, see `TimeoutStage`).
    func timeout(_ dueTime: Duration, scheduler: any Scheduler, failure: (@Sendable () -> Error)?) -> DataStream<Element> {
        oneToOne { downstream in
            let stage = TimeoutStage(dueTime: dueTime, scheduler: scheduler, failure: failure, downstream: downstream)
            stage.arm(after: dueTime)
            let upstream = self.watch(using: Watcher(
                handingOnTo: stage,
                onData: { [stage] value in try stage.receive(value) },
                onTerminal: { [stage] event in stage.finish(event) }
            ))
            stage.attach(upstream)
            // Over a stream that does not stop its watchers, disposing the operator's own subscription
            // (see `oneToOne`) must reach the stage to cancel the timer.
            guard !self.stopsItsWatchers else { return upstream }
            return Disposable {
                upstream.dispose()
                stage.stop()
            }
        }
    }
}

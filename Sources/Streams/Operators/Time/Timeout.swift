extension StreamType {
    /// Fails with `StreamTimeoutError` when no value (or end) arrives within
    /// `dueTime` of the subscription or of the previous value, and disposes the
    /// source. Each value restarts the wait.
    ///
    ///     source:              --a--b-------c|
    ///     timeout(4 ticks):    --a--b---#             # = StreamTimeoutError
    ///
    /// For a one-shot request stream this bounds the whole request; for a stream of
    /// many values it bounds each gap (ReactiveX semantics).
    public func timeout(_ dueTime: Duration, scheduler: any Scheduler) -> DataStream<Element> {
        DataStream { downstream in
            let cell = TimedOperatorCell(UInt64(1), downstream: downstream)
            let timer = TimerSlot()
            @Sendable func startWait(_ generation: UInt64) {
                timer.start(generation, on: scheduler, after: dueTime) {
                    cell.update { current, outbox in
                        guard current == generation else { return }
                        outbox.error(StreamTimeoutError(timeout: dueTime))
                    }
                }
            }
            startWait(1)
            let upstream = watch { event in
                let restart = cell.update { generation, outbox -> UInt64? in
                    outbox.event(event)
                    guard case .data = event else { return nil }
                    generation += 1
                    return generation
                }
                if let generation = restart ?? nil { startWait(generation) }
            }
            return Disposable {
                upstream.dispose()
                timer.close()
                cell.shutDown()
            }
        }
    }
}

extension StreamType {
    /// Emits a value only once `dueTime` has passed without a newer one; each new
    /// value restarts the wait. At the end, a value still waiting is emitted at
    /// once, then the end. An error drops the waiting value and passes on.
    ///
    ///     source:              -a-b-------c---d-|
    ///     debounce(3 ticks):   ------b-------c--(d|)
    ///
    /// ReactiveX: `debounce` (RxJava also `throttleWithTimeout`).
    public func debounce(_ dueTime: Duration, scheduler: any Scheduler) -> DataStream<Element> {
        DataStream { downstream in
            let cell = TimedOperatorCell(DebounceState<Element>(), downstream: downstream)
            let timer = TimerSlot()
            let upstream = watch { event in
                switch event {
                case .data(let value):
                    let started = cell.update { state, _ -> UInt64 in
                        state.generation += 1
                        state.waiting = value
                        return state.generation
                    }
                    guard let generation = started else { return }
                    timer.start(generation, on: scheduler, after: dueTime) {
                        cell.update { state, outbox in
                            guard state.generation == generation, let value = state.waiting else { return }
                            state.waiting = nil
                            outbox.data(value)
                        }
                    }
                case .error(let error):
                    cell.update { state, outbox in
                        state.waiting = nil
                        outbox.error(error)
                    }
                case .end:
                    cell.update { state, outbox in
                        if let value = state.waiting { outbox.data(value) }
                        state.waiting = nil
                        outbox.end()
                    }
                }
            }
            return Disposable {
                upstream.dispose()
                timer.close()
                cell.shutDown()
            }
        }
    }
}

private struct DebounceState<Element: Sendable>: Sendable {
    /// Identifies the latest value, so a timer started for an older one does nothing.
    var generation: UInt64 = 0
    var waiting: Element?
}

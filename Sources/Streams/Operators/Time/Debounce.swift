// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Emits a value only once `dueTime` has passed without a newer one; each new
    /// value restarts the wait. At the end, a value still waiting is emitted at
    /// once, then the end. An error drops the waiting value and passes on.
    ///
    ///     source:              -a-b-------c---d-|
    ///     debounce(3 ticks):   ------b-------c--(d|)
    ///
    /// A new value only moves the deadline; the one pending timer, when it fires
    /// early for a moved deadline, waits again for the rest. So a fast typist costs
    /// one timer per pause, not one per keystroke.
    /// ReactiveX: `debounce` (RxJava also `throttleWithTimeout`).
    public func debounce(_ dueTime: Duration, scheduler: any Scheduler) -> DataStream<Element> {
        DataStream { downstream in
            let cell = SerializedSink(DebounceState<Element>(), downstream: downstream)
            let timer = SerialDisposable()
            @Sendable func expire(_ generation: UInt64) {
                let rest = cell.updateUnlessFinished { state, outbox -> (generation: UInt64, delay: Duration)? in
                    guard state.timerArmed, state.generation == generation else { return nil }
                    let now = scheduler.now
                    guard now >= state.deadline else {
                        state.generation += 1
                        return (state.generation, state.deadline - now)
                    }
                    state.timerArmed = false
                    if let value = state.waiting { outbox.data(value) }
                    state.waiting = nil
                    return nil
                }
                if let rest = rest ?? nil {
                    timer.schedule(rest.generation, on: scheduler, after: rest.delay) { expire(rest.generation) }
                }
            }
            let upstream = watch { event in
                switch event {
                case .data(let value):
                    let arm = cell.updateUnlessFinished { state, _ -> UInt64? in
                        state.waiting = value
                        state.deadline = scheduler.now + dueTime
                        guard !state.timerArmed else { return nil }
                        state.timerArmed = true
                        state.generation += 1
                        return state.generation
                    }
                    if let generation = arm ?? nil {
                        timer.schedule(generation, on: scheduler, after: dueTime) { expire(generation) }
                    }
                case .error(let error):
                    cell.updateUnlessFinished { state, outbox in
                        state.waiting = nil
                        outbox.error(error)
                    }
                case .end:
                    cell.updateUnlessFinished { state, outbox in
                        if let value = state.waiting { outbox.data(value) }
                        state.waiting = nil
                        outbox.end()
                    }
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

private struct DebounceState<Element: Sendable>: Sendable {
    var waiting: Element?
    /// When the waiting value is due, on the scheduler's clock.
    var deadline: Duration = .zero
    /// A timer is pending; it fires at or before `deadline`.
    var timerArmed = false
    /// Identifies the pending timer, so a superseded one does nothing.
    var generation: UInt64 = 0
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Shifts every value, and the end, later by `dueTime`, keeping their spacing.
    /// An error is not delayed: it passes on at once and drops the values still
    /// waiting (as in ReactiveX).
    ///
    ///     source:            -a-b---c|
    ///     delay(3 ticks):    ----a-b---c|
    ///
    /// Only one timer is pending at a time, for the earliest waiting event.
    public func delay(_ dueTime: Duration, scheduler: any Scheduler) -> DataStream<Element> {
        let shift = max(dueTime, .zero)
        return DataStream { downstream in
            let cell = SerializedSink(DelayState<Element>(), downstream: downstream)
            let timer = SerialDisposable()
            @Sendable func release(_ generation: UInt64) {
                let next = cell.updateUnlessFinished { state, outbox -> (generation: UInt64, delay: Duration)? in
                    guard state.generation == generation else { return nil }
                    let now = scheduler.now
                    while let (due, event) = state.waiting.first, due <= now {
                        state.waiting.removeFirst()
                        outbox.event(event)
                    }
                    guard let (due, _) = state.waiting.first else {
                        state.timerArmed = false
                        return nil
                    }
                    state.generation += 1
                    return (state.generation, due - now)
                }
                if let next = next ?? nil {
                    timer.schedule(next.generation, on: scheduler, after: next.delay) { release(next.generation) }
                }
            }
            let upstream = watch { event in
                let arm = cell.updateUnlessFinished { state, outbox -> UInt64? in
                    if case .error = event {
                        state.waiting.removeAll()
                        outbox.event(event)
                        return nil
                    }
                    state.waiting.append((scheduler.now + shift, event))
                    guard !state.timerArmed else { return nil }
                    state.timerArmed = true
                    state.generation += 1
                    return state.generation
                }
                if let generation = arm ?? nil {
                    timer.schedule(generation, on: scheduler, after: shift) { release(generation) }
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

private struct DelayState<Element: Sendable>: Sendable {
    /// Events in arrival order with the time each is due; due times never decrease.
    var waiting = FIFO<(due: Duration, event: Event<Element>)>()
    /// A timer is pending for the first waiting event.
    var timerArmed = false
    var generation: UInt64 = 0
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Collects values into arrays and emits one every `timeSpan`, empty or not; with a
    /// `count`, an array that fills up is emitted at once and starts a new time span.
    /// At the end, a non-empty array is emitted before the end; an error drops it.
    ///
    ///     source:                          -ab--c---d-|
    ///     buffer(timeSpan: 4 ticks):       ----x---y--(z|)    x = [a,b], y = [c], z = [d]
    ///     buffer(timeSpan: 4, count: 2):   --x---y---z|       x = [a,b], y = [c], z = [d]
    ///
    /// Time spans follow each other without drift: without a count, span N closes
    /// N × timeSpan after the subscription. A zero or negative time span fails with
    /// `InvalidDurationError`; a count below 1 is treated as 1.
    /// ReactiveX: `buffer(timeSpan, count)` (RxSwift `buffer(timeSpan:count:scheduler:)`).
    public func buffer(timeSpan: Duration, count: Int = .max, scheduler: any Scheduler) -> DataStream<[Element]> {
        let size = max(count, 1)
        return DataStream { downstream in
            guard timeSpan > .zero else {
                downstream.error(InvalidDurationError(operatorName: "buffer", duration: timeSpan))
                return Disposable()
            }
            let cell = SerializedSink(
                TimeSpanBufferState<Element>(spanEnd: scheduler.now + timeSpan),
                downstream: downstream
            )
            let timer = SerialDisposable()
            @Sendable func closeSpan(_ generation: UInt64) {
                let next = cell.updateUnlessFinished { state, outbox -> (generation: UInt64, delay: Duration)? in
                    guard state.generation == generation else { return nil }
                    outbox.data(state.collected)
                    state.collected = []
                    let now = scheduler.now
                    state.spanEnd += timeSpan
                    // Running late by a whole span or more: start afresh rather than emit a burst of empties.
                    if state.spanEnd <= now { state.spanEnd = now + timeSpan }
                    state.generation += 1
                    return (state.generation, state.spanEnd - now)
                }
                if let next = next ?? nil { startTimer(next.generation, after: next.delay) }
            }
            @Sendable func startTimer(_ generation: UInt64, after delay: Duration) {
                timer.schedule(generation, on: scheduler, after: delay) { closeSpan(generation) }
            }
            startTimer(1, after: timeSpan)
            let upstream = watch { event in
                let restart = cell.updateUnlessFinished { state, outbox -> UInt64? in
                    switch event {
                    case .data(let value):
                        state.collected.append(value)
                        guard state.collected.count >= size else { return nil }
                        outbox.data(state.collected)
                        state.collected = []
                        state.spanEnd = scheduler.now + timeSpan
                        state.generation += 1
                        return state.generation
                    case .error(let error):
                        state.collected = []
                        outbox.error(error)
                    case .end:
                        if !state.collected.isEmpty { outbox.data(state.collected) }
                        state.collected = []
                        outbox.end()
                    }
                    return nil
                }
                if let generation = restart ?? nil { startTimer(generation, after: timeSpan) }
            }
            return Disposable {
                upstream.dispose()
                timer.dispose()
                cell.shutDown()
            }
        }
    }
}

private struct TimeSpanBufferState<Element: Sendable>: Sendable {
    var collected: [Element] = []
    /// When the current span closes, on the scheduler's clock.
    var spanEnd: Duration
    /// Identifies the current span, so a timer for an earlier one does nothing.
    var generation: UInt64 = 1
}

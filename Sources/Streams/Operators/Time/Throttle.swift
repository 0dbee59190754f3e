// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Emits at most one value per `interval`.
    ///
    /// A value that arrives when nothing was emitted during the last `interval` goes
    /// out at once (leading edge). Values arriving sooner are dropped, except that
    /// with `latest: true` (the default) the last of them is kept and emitted when
    /// the interval since the previous emission is over (trailing edge), which starts
    /// a new interval. The end waits for a kept value to go out first; an error
    /// passes on at once and drops it.
    ///
    ///     source:                             -abc-----------de---|
    ///     throttle(4 ticks):                  -a---c---------d---e|
    ///     throttle(4 ticks, latest: false):   -a-------------d----|
    ///
    /// The same semantics as RxSwift's `throttle(_:latest:scheduler:)`. With
    /// `latest: false` it is ReactiveX's `throttleFirst`; RxJS's `throttleTime`
    /// with `{ leading: true, trailing: true }` for `latest: true`.
    public func throttle(_ interval: Duration, latest: Bool = true, scheduler: any Scheduler) -> DataStream<Element> {
        DataStream { downstream in
            let cell = SerializedSink(ThrottleState<Element>(), downstream: downstream)
            let timer = SerialDisposable()
            @Sendable func emitKept(_ generation: UInt64) {
                cell.updateUnlessFinished { state, outbox in
                    guard state.timerArmed, state.generation == generation else { return }
                    state.timerArmed = false
                    if let value = state.kept {
                        state.kept = nil
                        state.lastEmission = scheduler.now
                        outbox.data(value)
                    }
                    if state.endWaiting { outbox.end() }
                }
            }
            let upstream = watch { event in
                switch event {
                case .data(let value):
                    let wait = cell.updateUnlessFinished { state, outbox -> (generation: UInt64, delay: Duration)? in
                        let now = scheduler.now
                        if state.timerArmed {
                            state.kept = value
                            return nil
                        }
                        guard let last = state.lastEmission, now - last < interval else {
                            state.lastEmission = now
                            outbox.data(value)
                            return nil
                        }
                        guard latest else { return nil }
                        state.kept = value
                        state.timerArmed = true
                        state.generation += 1
                        return (state.generation, last + interval - now)
                    }
                    if let wait = wait ?? nil {
                        timer.schedule(wait.generation, on: scheduler, after: wait.delay) { emitKept(wait.generation) }
                    }
                case .error(let error):
                    cell.updateUnlessFinished { state, outbox in
                        state.kept = nil
                        outbox.error(error)
                    }
                case .end:
                    cell.updateUnlessFinished { state, outbox in
                        if state.timerArmed {
                            state.endWaiting = true
                        } else {
                            outbox.end()
                        }
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

private struct ThrottleState<Element: Sendable>: Sendable {
    var lastEmission: Duration?
    /// The latest value waiting for the trailing edge.
    var kept: Element?
    /// A trailing-edge timer is pending; at most one is at a time.
    var timerArmed = false
    var generation: UInt64 = 0
    /// The source ended while a value was kept: end right after emitting it.
    var endWaiting = false
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Splits the values into consecutive windows of `count`: a stream of streams, each
    /// window opened as the previous one closes (ReactiveX: `window(count)`; Combine:
    /// none; ReactiveCocoa: none — `collect(count:)` is `buffer`).
    ///
    ///     source:            -a-b-c-d-e-|
    ///     window(count: 2):  W---X---Y--|      W: -a-b|  X: -c-d|  Y: -e-|
    ///
    /// The first window opens at the subscription, so an empty source gives one empty window.
    /// A count below 1 is treated as 1. See `window(timeSpan:count:scheduler:)` for how windows
    /// are delivered and disposed.
    public func window(count: Int) -> DataStream<DataStream<Element>> {
        windowed(count: max(count, 1), timeSpan: nil)
    }

    /// Splits the values into windows that close after `timeSpan` or at `count` values,
    /// whichever comes first; a window closed by its count starts a fresh time span
    /// (ReactiveX: `window(timeSpan:count:scheduler:)`, RxJS `windowTime`; Combine: none).
    ///
    ///     source:                               -a-b-c----d-|
    ///     window(timeSpan: 4 ticks, count: 2):  W--X---Y---Z|   W: -a-b|  X: --c-|  Y: ---d|  Z: -|
    ///
    /// Windows are hot: a window's values go to whoever watches it when they arrive, so watch
    /// each window as it is delivered (`merge()`, `concat()` of the windows, or a watcher that
    /// subscribes at once). The end or error of the source ends or fails the open window, then
    /// the stream of windows.
    ///
    /// Deliberate difference: disposing the stream of windows disposes the source; RxSwift
    /// keeps the source watched while any window is still watched.
    /// A zero or negative `timeSpan` fails with `InvalidDurationError`.
    public func window(timeSpan: Duration, count: Int = .max, scheduler: any Scheduler) -> DataStream<DataStream<Element>> {
        windowed(count: max(count, 1), timeSpan: (timeSpan, scheduler))
    }

    private func windowed(
        count: Int, timeSpan: (span: Duration, scheduler: any Scheduler)?
    ) -> DataStream<DataStream<Element>> {
        DataStream { downstream in
            if let timeSpan, timeSpan.span <= .zero {
                downstream.error(InvalidDurationError(operatorName: "window", duration: timeSpan.span))
                return Disposable()
            }
            let windows = WindowSink<Element>(count: count, downstream: downstream)
            let timer = SerialDisposable()
            @Sendable func startTimer(_ generation: UInt64) {
                guard let timeSpan else { return }
                timer.schedule(generation, on: timeSpan.scheduler, after: timeSpan.span) {
                    if let next = windows.closeByTime(generation) { startTimer(next) }
                }
            }
            if let first = windows.open() { startTimer(first) }
            let upstream = watch { event in
                if let next = windows.receive(event) { startTimer(next) }
            }
            return Disposable {
                upstream.dispose()
                timer.dispose()
                windows.shutDown()
            }
        }
    }
}

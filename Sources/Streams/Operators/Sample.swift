// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// At each value of `sampler`, emits the source's latest value if a new one came
    /// since the previous tick, or `defaultValue` if one is given (ReactiveX: `sample`;
    /// Combine: none; ReactiveCocoa: `sample(on:)`).
    ///
    ///     source:          -1-2---3---|
    ///     sampler:         --x---x-x----x|
    ///     sample(sampler): --1---2-3----|      (the last tick finds nothing new, and ends it)
    ///
    /// The source's end waits for the next tick, which takes the unsampled value along and
    /// ends; the sampler's end takes the unsampled value (or `defaultValue`) and ends. An
    /// error of either passes on and disposes both.
    ///
    /// Deliberate difference: when the sampler ends before the source, RxSwift stays silent
    /// until disposed (no value can ever leave it again); Streams ends there, as RxJava does.
    public func sample<Sampler: StreamType>(_ sampler: Sampler, defaultValue: Element? = nil) -> DataStream<Element> {
        DataStream { downstream in
            let sink = SerializedSink(SampleState<Element>(), downstream: downstream)
            let source = self.watch(using: Watcher.relay { event in
                sink.update { state, outbox in
                    switch event {
                    case .data(let value): state.latest = value
                    case .error(let error): outbox.error(error)
                    case .end: state.sourceEnded = true
                    }
                }
            })
            guard !downstream.isStopped else { return source }
            let ticks = sampler.watch(using: Watcher.relay { event in
                sink.update { state, outbox in
                    switch event {
                    case .data, .end:
                        if let value = state.latest ?? defaultValue { outbox.data(value) }
                        state.latest = nil
                        if state.sourceEnded || event.isTerminal { outbox.end() }
                    case .error(let error): outbox.error(error)
                    }
                }
            })
            return Disposable {
                source.dispose()
                ticks.dispose()
            }
        }
    }
}

private struct SampleState<Element> {
    /// The source's newest value not yet sampled.
    var latest: Element?
    var sourceEnded = false
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Drops the source's values until `notifier` emits its first value, then passes
    /// them on (ReactiveX: `skipUntil`; Combine: `drop(untilOutputFrom:)`;
    /// ReactiveCocoa: `skip(until:)`).
    ///
    ///     source:              -1-2-3-4-|
    ///     notifier:            ----x--
    ///     skipUntil(notifier): -----3-4-|
    ///
    /// The notifier is disposed at its first value; its error fails the result; its end
    /// without a value leaves the gate shut (the source is still watched, for its end).
    ///
    /// Deliberate difference: RxSwift swallows the source's end while the gate is shut,
    /// leaving its watcher waiting forever; Streams passes the end on, as RxJS, RxJava and
    /// Combine do.
    public func skipUntil<Notifier: StreamType>(_ notifier: Notifier) -> DataStream<Element> {
        DataStream { downstream in
            let sink = SerializedSink(false, downstream: downstream)
            let gate = SerialDisposable()
            let source = self.watch(using: Watcher.relay { event in
                sink.update { open, outbox in
                    switch event {
                    case .data(let value): if open { outbox.data(value) }
                    case .error(let error): outbox.error(error)
                    case .end: outbox.end()
                    }
                }
            })
            guard !downstream.isStopped else { return source }
            gate.replace(with: notifier.watch(using: Watcher.relay { event in
                let opened = sink.update { open, outbox -> Bool in
                    switch event {
                    case .data:
                        guard !open else { return false }
                        open = true
                        return true
                    case .error(let error):
                        outbox.error(error)
                        return false
                    case .end: return false
                    }
                }
                if opened { gate.dispose() }
            }))
            return Disposable {
                source.dispose()
                gate.dispose()
            }
        }
    }
}

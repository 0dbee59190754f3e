// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Passes values until `notifier` emits its first value, then ends and
    /// disposes both; an error of `notifier` fails it, its end without a value
    /// changes nothing.
    ///
    ///     source:              -1-2-3-4-|
    ///     notifier:            -----x---|
    ///     takeUntil(notifier): -1-2-|
    public func takeUntil<Notifier: StreamType>(_ notifier: Notifier) -> DataStream<Element> {
        DataStream { downstream in
            let sink = SerializedSink((), downstream: downstream)
            let stop = notifier.watch(using: Watcher.relay { event in
                sink.update { _, outbox in
                    switch event {
                    case .data: outbox.end()
                    case .error(let error): outbox.error(error)
                    case .end: break
                    }
                }
            })
            guard !downstream.isStopped else { return stop }
            let source = self.watch(using: Watcher.relay { event in
                sink.update { _, outbox in outbox.event(event) }
            })
            return Disposable {
                source.dispose()
                stop.dispose()
            }
        }
    }
}

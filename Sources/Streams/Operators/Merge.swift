// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension DataStream {
    /// All the sources' values as they come, interleaved; ends when every source
    /// has ended, fails at the first error (and disposes the other sources).
    ///
    ///     a:           -1---3-|
    ///     b:           ---2---4-|
    ///     merge(a, b): -1-2-3-4-|
    ///
    /// Sources emitting on different threads are serialized: the watcher never
    /// receives two events at once.
    public static func merge(
        _ first: any StreamType<Element>, _ second: any StreamType<Element>, _ rest: any StreamType<Element>...
    ) -> DataStream<Element> {
        merge([first, second] + rest)
    }

    /// All the sources' values as they come; `merge([])` ends at once.
    public static func merge(_ sources: [any StreamType<Element>]) -> DataStream<Element> {
        guard !sources.isEmpty else { return .empty() }
        return DataStream { downstream in
            let sink = SerializedSink(sources.count, downstream: downstream)
            let subscriptions = CompositeDisposable()
            for source in sources {
                guard !downstream.isStopped, let key = subscriptions.reserveKey() else { break }
                let subscription = source.watch(using: Watcher.relay { event in
                    sink.update { running, outbox in
                        switch event {
                        case .data(let value): outbox.data(value)
                        case .error(let error): outbox.error(error)
                        case .end:
                            running -= 1
                            if running == 0 { outbox.end() }
                        }
                    }
                })
                subscriptions.insert(subscription, forKey: key)
            }
            return subscriptions.asDisposable
        }
    }
}

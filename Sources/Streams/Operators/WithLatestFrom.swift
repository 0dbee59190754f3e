// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Combines each value with the latest value of `other`; values arriving
    /// before `other` has emitted are dropped. Ends when this stream ends; the
    /// end of `other` does not end it, an error of `other` fails it.
    ///
    ///     source:                      ---1-----2---3-|
    ///     other:                       -a---b-------c---|
    ///     withLatestFrom(other) { … }: ---(1,a)-(2,b)-(3,b)|
    ///
    /// A throw from `combine` is delivered as `.error` and disposes both streams.
    public func withLatestFrom<Other: StreamType, Result: Sendable>(
        _ other: Other, _ combine: @escaping @Sendable (Element, Other.Element) throws -> Result
    ) -> DataStream<Result> {
        DataStream { downstream in
            let sink = SerializedSink<Other.Element?, Result>(nil, downstream: downstream)
            let latest = other.watch(using: Watcher.relay { event in
                sink.update { latest, outbox in
                    switch event {
                    case .data(let value): latest = value
                    case .error(let error): outbox.error(error)
                    case .end: break
                    }
                }
            })
            let source = self.watch(using: Watcher.relay { event in
                sink.update { latest, outbox in
                    switch event {
                    case .data(let value):
                        guard let latest else { return }
                        do { outbox.data(try combine(value, latest)) } catch { outbox.error(error) }
                    case .error(let error): outbox.error(error)
                    case .end: outbox.end()
                    }
                }
            })
            return Disposable {
                source.dispose()
                latest.dispose()
            }
        }
    }

    /// Each value paired with the latest value of `other` (see `withLatestFrom(_:_:)`).
    ///
    ///     source:                ---1-----2-|
    ///     other:                 -a---b-----|
    ///     withLatestFrom(other): ---(1,a)-(2,b)|
    public func withLatestFrom<Other: StreamType>(_ other: Other) -> DataStream<(Element, Other.Element)> {
        withLatestFrom(other) { ($0, $1) }
    }
}

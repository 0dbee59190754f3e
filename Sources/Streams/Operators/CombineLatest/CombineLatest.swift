// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension DataStream {
    /// The latest value of each source, every time any of them emits once all
    /// have emitted; ends when every source has ended (or at once when a source
    /// ends without ever emitting, since nothing could then be combined).
    ///
    ///     a:                   -1-----2---|
    ///     b:                   ---x-y-----|
    ///     combineLatest(a, b): ---(1,x)-(1,y)-(2,y)|
    ///
    /// The first error fails the result and disposes both sources.
    public static func combineLatest<A: StreamType, B: StreamType>(_ a: A, _ b: B) -> DataStream<Element>
    where Element == (A.Element, B.Element) {
        DataStream { downstream in
            let sink = SerializedSink(LatestPair<A.Element, B.Element>(), downstream: downstream)
            let first = a.watch(using: Watcher.relay { event in
                sink.update { state, outbox in
                    switch event {
                    case .data(let value): state.left = value
                    case .error(let error): outbox.error(error)
                    case .end: state.leftEnded = true
                    }
                    state.emit(after: event, into: &outbox, isLeft: true)
                }
            })
            let second = b.watch(using: Watcher.relay { event in
                sink.update { state, outbox in
                    switch event {
                    case .data(let value): state.right = value
                    case .error(let error): outbox.error(error)
                    case .end: state.rightEnded = true
                    }
                    state.emit(after: event, into: &outbox, isLeft: false)
                }
            })
            return Disposable {
                first.dispose()
                second.dispose()
            }
        }
    }

    /// The latest values of three sources (see the two-source `combineLatest`).
    public static func combineLatest<A: StreamType, B: StreamType, C: StreamType>(
        _ a: A, _ b: B, _ c: C
    ) -> DataStream<Element> where Element == (A.Element, B.Element, C.Element) {
        DataStream<((A.Element, B.Element), C.Element)>
            .combineLatest(DataStream<(A.Element, B.Element)>.combineLatest(a, b), c)
            .map { pair, third in (pair.0, pair.1, third) }
    }

    /// The latest values of all sources as an array; `combineLatest([])` ends at once.
    ///
    ///     a:                     -1-----2-|
    ///     b:                     ---x-----|
    ///     combineLatest([a, b]): ---[1,x]-[2,x]|
    public static func combineLatest<Value: Sendable>(_ sources: [any StreamType<Value>]) -> DataStream<Element>
    where Element == [Value] {
        guard !sources.isEmpty else { return .empty() }
        return DataStream { downstream in
            let sink = SerializedSink(LatestMany<Value>(count: sources.count), downstream: downstream)
            let subscriptions = CompositeDisposable()
            for (index, source) in sources.enumerated() {
                guard !downstream.isStopped, let key = subscriptions.reserveKey() else { break }
                subscriptions.insert(source.watch(using: Watcher.relay { event in
                    sink.update { state, outbox in state.receive(event, from: index, into: &outbox) }
                }), forKey: key)
            }
            return subscriptions.asDisposable
        }
    }
}

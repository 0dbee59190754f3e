// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension DataStream {
    /// Pairs the sources' values by position: the first of each, the second of
    /// each, …; ends once a source has ended and every value it sent is paired.
    ///
    ///     a:         -1-2-----3-|
    ///     b:         ---x-y-z---|
    ///     zip(a, b): ---(1,x)-(2,y)-(3,z)|
    ///
    /// Unpaired values wait in ring buffers (constant cost per pair however many
    /// wait); the first error fails the result and disposes both sources.
    @inlinable
    public static func zip<A: StreamType, B: StreamType>(_ a: A, _ b: B) -> DataStream<Element>
    where Element == (A.Element, B.Element) {
        DataStream { downstream in
            let sink = SerializedSink(ZipPair<A.Element, B.Element>(), downstream: downstream)
            let first = a.watch(using: Watcher.relay { event in
                sink.update { state, outbox in
                    switch event {
                    case .data(let value): state.left.append(value)
                    case .error(let error): outbox.error(error)
                    case .end: state.leftEnded = true
                    }
                    state.emitPairs(into: &outbox)
                }
            })
            let second = b.watch(using: Watcher.relay { event in
                sink.update { state, outbox in
                    switch event {
                    case .data(let value): state.right.append(value)
                    case .error(let error): outbox.error(error)
                    case .end: state.rightEnded = true
                    }
                    state.emitPairs(into: &outbox)
                }
            })
            return Disposable {
                first.dispose()
                second.dispose()
            }
        }
    }

    /// Triples of the sources' values by position (see the two-source `zip`).
    ///
    ///     a:            -1---2-|
    ///     b:            -x---y-|
    ///     c:            ---p---q|
    ///     zip(a, b, c): ---(1,x,p)-(2,y,q)|
    public static func zip<A: StreamType, B: StreamType, C: StreamType>(_ a: A, _ b: B, _ c: C) -> DataStream<Element>
    where Element == (A.Element, B.Element, C.Element) {
        DataStream<((A.Element, B.Element), C.Element)>.zip(DataStream<(A.Element, B.Element)>.zip(a, b), c)
            .map { pair, third in (pair.0, pair.1, third) }
    }

    /// Arrays of the sources' values by position; `zip([])` ends at once.
    ///
    ///     a:           -1---2-|
    ///     b:           ---x---y-|
    ///     zip([a, b]): ---[1,x]-[2,y]|
    public static func zip<Value: Sendable>(_ sources: [any StreamType<Value>]) -> DataStream<Element>
    where Element == [Value] {
        guard !sources.isEmpty else { return .empty() }
        return DataStream { downstream in
            let sink = SerializedSink(ZipMany<Value>(count: sources.count), downstream: downstream)
            let subscriptions = CompositeDisposable()
            for (index, source) in sources.enumerated() {
                guard !downstream.isStopped, let key = subscriptions.reserveKey() else { break }
                subscriptions.insert(source.watch(using: Watcher.relay { event in
                    sink.update { state, outbox in
                        switch event {
                        case .data(let value): state.queues[index].append(value)
                        case .error(let error): outbox.error(error)
                        case .end: state.ended[index] = true
                        }
                        state.emitTuples(into: &outbox)
                    }
                }), forKey: key)
            }
            return subscriptions.asDisposable
        }
    }
}

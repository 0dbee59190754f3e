// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Lets through only the values `isIncluded` accepts.
    ///
    ///     source:                 -1-2-3-4-|
    ///     filter { $0 % 2 == 0 }: ---2---4-|
    ///
    /// A throw from `isIncluded` is delivered as `.error` and disposes the upstream.
    @inlinable @inline(__always)
    public func filter(_ isIncluded: @escaping @Sendable (Element) throws -> Bool) -> DataStream<Element> {
        if let source = fusable { return DataStream(synchronous: source.filter(isIncluded)) }
        return watchingFilter(isIncluded)
    }

    /// `filter` over a stream that is not fused: a watcher per subscription, handing the
    /// downstream on; a throw fails that watcher, disposing the upstream.
    @inlinable
    func watchingFilter(_ isIncluded: @escaping @Sendable (Element) throws -> Bool) -> DataStream<Element> {
        oneToOne { downstream in
            self.watch(using: Watcher(handingOnTo: downstream) { value in
                if try isIncluded(value) { try downstream.handOnData(value) }
            })
        }
    }
}

extension SynchronousSource {
    /// The fused form of `filter` (see `SynchronousSource`).
    ///
    /// Its batch path is kept: `filter` is the middle stage of `streams-bench`'s `a.from` workload
    /// (map → filter → reduce over 1,000,000 Ints), which without batch paths ran about 70 times
    /// slower in the same run (Streams ledger in Benchmarks/README.md).
    @inlinable @inline(__always)
    func filter(_ isIncluded: @escaping @Sendable (Element) throws -> Bool) -> SynchronousSource<Element> {
        let upstream = self
        return SynchronousSource(depth: depth + 1, { stop, body in
            try upstream.run(stop) { value in try isIncluded(value) ? try body(value) : true }
        }, batches: batches(state: ()) { input, output, _ in
            for value in input where try isIncluded(value) { output.append(value) }
        })
    }
}

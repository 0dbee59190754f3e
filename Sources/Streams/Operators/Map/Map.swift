// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Transforms each value.
    ///
    ///     source:          -1-2-3-|
    ///     map { $0 * 10 }: -10-20-30-|
    ///
    /// A throw from `transform` is delivered as `.error` and disposes the upstream.
    @inlinable @inline(__always)
    public func map<Result: Sendable>(_ transform: @escaping @Sendable (Element) throws -> Result) -> DataStream<Result> {
        if let source = fusable { return DataStream<Result>(synchronous: source.map(transform)) }
        return watchingMap(transform)
    }

    /// `map` over a stream that is not fused: a watcher per subscription, handing the downstream on.
    @inlinable
    func watchingMap<Result: Sendable>(_ transform: @escaping @Sendable (Element) throws -> Result) -> DataStream<Result> {
        oneToOne { downstream in
            let stage = MapStage(transform: transform, downstream: downstream)
            return self.watch(using: Watcher(handingOnTo: downstream) { [stage] value in try stage.receive(value) })
        }
    }
}

extension SynchronousSource {
    /// The fused form of `map` (see `SynchronousSource`).
    ///
    /// Its batch path is kept: `map` is the first stage of `streams-bench`'s `a.from` workload
    /// (map → filter → reduce over 1,000,000 Ints), which without batch paths ran about 70 times
    /// slower in the same run (Streams ledger in Benchmarks/README.md).
    @inlinable @inline(__always)
    func map<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) throws -> Result
    ) -> SynchronousSource<Result> {
        let upstream = self
        return SynchronousSource<Result>(depth: depth + 1, { stop, body in
            try upstream.run(stop) { value in try body(try transform(value)) }
        }, batches: batches(state: ()) { input, output, _ in
            for value in input { output.append(try transform(value)) }
        })
    }
}

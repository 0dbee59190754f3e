// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Transforms each value and drops the `nil` results.
    ///
    ///     source:                 -"1"-"x"-"3"-|
    ///     compactMap { Int($0) }: -1-------3---|
    ///
    /// A throw from `transform` is delivered as `.error` and disposes the upstream.
    @inlinable @inline(__always)
    public func compactMap<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) throws -> Result?
    ) -> DataStream<Result> {
        if let source = fusable { return DataStream<Result>(synchronous: source.compactMap(transform)) }
        return watchingCompactMap(transform)
    }

    /// `compactMap` over a stream that is not fused: a watcher per subscription, handing the
    /// downstream on; a throw fails that watcher, disposing the upstream.
    @inlinable
    func watchingCompactMap<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) throws -> Result?
    ) -> DataStream<Result> {
        oneToOne { downstream in
            self.watch(using: Watcher(handingOnTo: downstream) { value in
                if let result = try transform(value) { try downstream.handOnData(result) }
            })
        }
    }
}

extension SynchronousSource {
    /// The fused form of `compactMap` (see `SynchronousSource`).
    ///
    /// Its batch path is not shown by a benchmark (no `streams-bench` workload has a `compactMap`);
    /// it stays so that a batched chain through it is not cut back to one value at a time, and
    /// `BatchedFusionTests` pins it to the per-value path. A workload in `streams-bench` is what
    /// would decide whether it goes.
    @inlinable @inline(__always)
    func compactMap<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) throws -> Result?
    ) -> SynchronousSource<Result> {
        let upstream = self
        return SynchronousSource<Result>(depth: depth + 1, { stop, body in
            try upstream.run(stop) { value in
                guard let result = try transform(value) else { return true }
                return try body(result)
            }
        }, batches: batches(state: ()) { input, output, _ in
            for value in input {
                if let result = try transform(value) { output.append(result) }
            }
        })
    }
}

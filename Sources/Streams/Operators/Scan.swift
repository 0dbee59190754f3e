// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Emits every intermediate result of folding the values into an accumulator.
    ///
    ///     source:                      -1-2-3-|
    ///     scan(0) { $0 + $1 }:         -1-3-6-|
    ///
    /// A throw from `next` is delivered as `.error` and disposes the upstream.
    @inlinable @inline(__always)
    public func scan<Result: Sendable>(
        _ initial: Result, _ next: @escaping @Sendable (Result, Element) throws -> Result
    ) -> DataStream<Result> {
        if let source = fusable { return DataStream<Result>(synchronous: source.scan(initial, next)) }
        return watchingScan(initial, next)
    }

    /// `scan` over a stream that is not fused: a watcher per subscription.
    @inlinable
    func watchingScan<Result: Sendable>(
        _ initial: Result, _ next: @escaping @Sendable (Result, Element) throws -> Result
    ) -> DataStream<Result> {
        DataStream { downstream in
            let accumulator = OperatorState(initial)
            return self.watch(using: Watcher(forwardingTerminalsTo: downstream) { value in
                do {
                    let result = try accumulator.withLock { accumulated in
                        accumulated = try next(accumulated, value)
                        return accumulated
                    }
                    downstream.data(result)
                } catch {
                    downstream.error(error)
                }
            })
        }
    }
}

extension SynchronousSource {
    /// The fused form of `scan` (see `SynchronousSource`).
    ///
    /// Its batch path is not shown by a benchmark (no `streams-bench` workload has a `scan`); it
    /// stays so that a batched chain through it is not cut back to one value at a time, and
    /// `BatchedFusionTests` pins it to the per-value path. A workload in `streams-bench` is what
    /// would decide whether it goes.
    @inlinable @inline(__always)
    func scan<Result: Sendable>(
        _ initial: Result, _ next: @escaping @Sendable (Result, Element) throws -> Result
    ) -> SynchronousSource<Result> {
        let upstream = self
        return SynchronousSource<Result>(depth: depth + 1, { stop, body in
            var accumulated = initial
            try upstream.run(stop) { value in
                accumulated = try next(accumulated, value)
                return try body(accumulated)
            }
        }, batches: batches(state: initial) { input, output, accumulated in
            for value in input {
                accumulated = try next(accumulated, value)
                output.append(accumulated)
            }
        })
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Folds all values into one, emitted when the source ends.
    ///
    ///     source:                -1-2-3-|
    ///     reduce(0) { $0 + $1 }: -------6|
    ///
    /// A throw from `next` is delivered as `.error` and disposes the upstream.
    ///
    /// Over a synchronous source (`from`, and `map`/`filter`/`compactMap`/`scan`/`skip` on it)
    /// the upstream stages run a batch of up to 128 values at a time: the same values and
    /// result, but each stage's closure runs over a batch before the next stage's does.
    @inlinable @inline(__always)
    public func reduce<Result: Sendable>(
        _ initial: Result, _ next: @escaping @Sendable (Result, Element) throws -> Result
    ) -> DataStream<Result> {
        if let source = fusable { return DataStream<Result>(synchronous: source.reduce(initial, next)) }
        return watchingReduce(initial, next)
    }

    /// `reduce` over a stream that is not fused: a watcher per subscription.
    @inlinable
    func watchingReduce<Result: Sendable>(
        _ initial: Result, _ next: @escaping @Sendable (Result, Element) throws -> Result
    ) -> DataStream<Result> {
        DataStream { downstream in
            let accumulator = OperatorState(initial)
            return self.watch(using: Watcher(
                onData: { value in
                    do {
                        try accumulator.withLock { accumulated in accumulated = try next(accumulated, value) }
                    } catch {
                        downstream.error(error)
                    }
                },
                onTerminal: { event in
                    switch event {
                    case .data: break
                    case .error(let error): downstream.error(error)
                    case .end:
                        downstream.data(accumulator.withLock { $0 })
                        downstream.end()
                    }
                }
            ))
        }
    }
}

extension SynchronousSource {
    /// The fused form of `reduce` (see `SynchronousSource`):
    /// Folds the values and emits the result once the upstream is done (not when stopped).
    @inlinable @inline(__always)
    func reduce<Result: Sendable>(
        _ initial: Result, _ next: @escaping @Sendable (Result, Element) throws -> Result
    ) -> SynchronousSource<Result> {
        let upstream = self
        // A closure of its own (capturing only `next`), so the optimizer can specialize it
        // for a literal `next` and run the fold without a call per value.
        let fold: @Sendable (UnsafeBufferPointer<Element>, inout Result) throws -> Void = { batch, accumulated in
            for value in batch { accumulated = try next(accumulated, value) }
        }
        return SynchronousSource<Result>(depth: depth + 1) { stop, body in
            var accumulated = initial
            try upstream.forEachBatch(stop) { batch in try fold(batch, &accumulated) }
            if stop.isDisposedRelaxed { return }
            _ = try body(accumulated)
        }
    }
}

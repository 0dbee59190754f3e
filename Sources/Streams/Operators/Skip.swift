// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Drops the first `count` values.
    ///
    ///     source:  -1-2-3-4-|
    ///     skip(2): -----3-4-|
    public func skip(_ count: Int) -> DataStream<Element> {
        if let source = fusable { return DataStream(synchronous: source.skip(count)) }
        return DataStream { downstream in
            let remaining = OperatorState(max(0, count))
            return self.watch(using: Watcher.relay { event in
                switch event {
                case .data(let value):
                    let skipping = remaining.withLock { remaining -> Bool in
                        guard remaining > 0 else { return false }
                        remaining -= 1
                        return true
                    }
                    if !skipping { downstream.data(value) }
                case .error(let error): downstream.error(error)
                case .end: downstream.end()
                }
            })
        }
    }
}

extension SynchronousSource {
    /// The fused form of `skip` (see `SynchronousSource`).
    ///
    /// Its batch path is not shown by a benchmark (no `streams-bench` workload has a `skip`); it
    /// stays so that a batched chain through it is not cut back to one value at a time, and
    /// `BatchedFusionTests` pins it to the per-value path. A workload in `streams-bench` is what
    /// would decide whether it goes.
    @inlinable
    func skip(_ count: Int) -> SynchronousSource<Element> {
        let upstream = self
        return SynchronousSource(depth: depth + 1, { stop, body in
            var remaining = count
            try upstream.run(stop) { value in
                if remaining > 0 {
                    remaining -= 1
                    return true
                }
                return try body(value)
            }
        }, batches: runBatches.map { upstreamBatches in { @Sendable stop, body in
            var remaining = max(0, count)
            try upstreamBatches(stop) { batch in
                guard remaining < batch.count else {
                    remaining -= batch.count
                    return
                }
                let rest = UnsafeBufferPointer(rebasing: batch[remaining...])
                remaining = 0
                try body(rest)
            }
        } })
    }
}

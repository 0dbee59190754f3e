// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Collects all values into one array, emitted when the source ends.
    ///
    ///     source:    -1-2-3-|
    ///     toArray(): -------[1,2,3]|
    ///
    /// Over a synchronous source (`from`, and `map`/`filter`/`compactMap`/`scan`/`skip` on it)
    /// the upstream stages run a batch of up to 128 values at a time: the same values and
    /// result, but each stage's closure runs over a batch before the next stage's does.
    public func toArray() -> DataStream<[Element]> {
        if let source = fusable { return DataStream<[Element]>(synchronous: source.toArray()) }
        return DataStream { downstream in
            let collected = OperatorState<[Element]>([])
            return self.watch(using: Watcher.relay { event in
                switch event {
                case .data(let value): collected.withLock { $0.append(value) }
                case .error(let error): downstream.error(error)
                case .end:
                    downstream.data(collected.withLock { values in
                        defer { values = [] }
                        return values
                    })
                    downstream.end()
                }
            })
        }
    }
}

extension SynchronousSource {
    /// The fused form of `toArray` (see `SynchronousSource`).
    @inlinable
    func toArray() -> SynchronousSource<[Element]> {
        let upstream = self
        return SynchronousSource<[Element]>(depth: depth + 1) { stop, body in
            var collected: [Element] = []
            try upstream.forEachBatch(stop) { batch in collected.append(contentsOf: batch) }
            if stop.isDisposedRelaxed { return }
            _ = try body(collected)
        }
    }
}

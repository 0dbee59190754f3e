// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Passes the first `count` values, then ends and disposes the upstream.
    ///
    ///     source:  -1-2-3-4-|
    ///     take(2): -1-2|
    ///
    /// `take(0)` ends at once without watching the source.
    public func take(_ count: Int) -> DataStream<Element> {
        guard count > 0 else { return .empty() }
        if let source = fusable { return DataStream(synchronous: source.take(count)) }
        return DataStream { downstream in
            let remaining = OperatorState(count)
            return self.watch(using: Watcher.relay { event in
                switch event {
                case .data(let value):
                    let left = remaining.withLock { remaining -> Int in
                        remaining -= 1
                        return remaining
                    }
                    guard left >= 0 else { return }
                    downstream.data(value)
                    if left == 0 { downstream.end() }
                case .error(let error): downstream.error(error)
                case .end: downstream.end()
                }
            })
        }
    }
}

extension SynchronousSource {
    /// The fused form of `take` (see `SynchronousSource`):
    /// The first `count` values (`count > 0`); returning `false` after the last one completes the stream.
    /// It has no batched form: a batch would pull values past the last one.
    @inlinable
    func take(_ count: Int) -> SynchronousSource<Element> {
        let upstream = self
        return SynchronousSource(depth: depth + 1) { stop, body in
            var remaining = count
            try upstream.run(stop) { value in
                remaining -= 1
                return try body(value) && remaining > 0
            }
        }
    }
}

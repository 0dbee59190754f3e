// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Pairs each value with its position, counting from 0 (ReactiveX: `enumerated`;
    /// Swift: `Sequence.enumerated()`; Combine: none, written `scan`).
    ///
    ///     source:       -a-b-c-|
    ///     enumerated(): -(0,a)-(1,b)-(2,c)-|
    ///
    /// Each subscription counts from 0.
    public func enumerated() -> DataStream<(index: Int, element: Element)> {
        DataStream { downstream in
            let next = OperatorState(0)
            return self.watch(using: Watcher.relay { event in
                switch event {
                case .data(let value):
                    let index = next.withLock { next in
                        defer { next += 1 }
                        return next
                    }
                    downstream.data((index, value))
                case .error(let error): downstream.error(error)
                case .end: downstream.end()
                }
            })
        }
    }
}

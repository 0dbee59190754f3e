// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Collects values into arrays of `count` and emits each array when it is full.
    /// At the end, a partly filled array is emitted before the end; an error drops it.
    ///
    ///     source:             -a-b-c-d-e-|
    ///     buffer(count: 2):   ---x---y---(z|)      x = [a,b], y = [c,d], z = [e]
    ///
    /// A count below 1 is treated as 1. ReactiveX: `buffer(count)`.
    public func buffer(count: Int) -> DataStream<[Element]> {
        let size = max(count, 1)
        return DataStream { downstream in
            let cell = SerializedSink([Element](), downstream: downstream)
            let upstream = watch { event in
                cell.updateUnlessFinished { collected, outbox in
                    switch event {
                    case .data(let value):
                        if collected.isEmpty { collected.reserveCapacity(size) }
                        collected.append(value)
                        if collected.count == size {
                            outbox.data(collected)
                            collected = []
                        }
                    case .error(let error):
                        collected = []
                        outbox.error(error)
                    case .end:
                        if !collected.isEmpty { outbox.data(collected) }
                        collected = []
                        outbox.end()
                    }
                }
            }
            return Disposable {
                upstream.dispose()
                cell.shutDown()
            }
        }
    }
}

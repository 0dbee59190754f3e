// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Drops values while `predicate` holds, then passes every value on, the first refused
    /// one included; the predicate is not called again after that (ReactiveX: `skip(while:)`,
    /// `skipWhile`; Combine: `drop(while:)`; ReactiveCocoa: `skip(while:)`).
    ///
    ///     source:                -1-2-5-1-|
    ///     skipWhile { $0 < 3 }:  -----5-1-|
    ///
    /// A throw from `predicate` is delivered as `.error` and disposes the upstream.
    public func skipWhile(_ predicate: @escaping @Sendable (Element) throws -> Bool) -> DataStream<Element> {
        DataStream { downstream in
            let skipping = OperatorState(true)
            return self.watch(using: Watcher.relay { event in
                switch event {
                case .data(let value):
                    do {
                        // Deliveries to one watcher never overlap, so only this thread reads or flips the flag now.
                        if skipping.withLock({ $0 }) {
                            guard try !predicate(value) else { return }
                            skipping.withLock { $0 = false }
                        }
                        downstream.data(value)
                    } catch {
                        downstream.error(error)
                    }
                case .error(let error): downstream.error(error)
                case .end: downstream.end()
                }
            })
        }
    }
}

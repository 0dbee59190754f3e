// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Passes values until one satisfies `predicate`, then ends and disposes the source;
    /// `inclusive` passes that last value on before the end (ReactiveX:
    /// `take(until:behavior:)` in RxSwift, `takeUntil(predicate)` in RxJava, which is
    /// inclusive; Combine: `prefix(while:)` with the predicate negated, exclusive).
    ///
    ///     source:                                 -1-2-3-4-5-|
    ///     takeUntil { $0 == 4 }:                  -1-2-3-|
    ///     takeUntil(inclusive: true) { $0 == 4 }: -1-2-3-(4|)
    ///
    /// A throw from `predicate` is delivered as `.error` and disposes the source.
    /// `takeWhile` is the exclusive form with the predicate the other way round.
    public func takeUntil(
        inclusive: Bool = false, _ predicate: @escaping @Sendable (Element) throws -> Bool
    ) -> DataStream<Element> {
        DataStream { downstream in
            self.watch(using: Watcher.relay { event in
                switch event {
                case .data(let value):
                    do {
                        if try predicate(value) {
                            if inclusive { downstream.data(value) }
                            downstream.end()
                        } else {
                            downstream.data(value)
                        }
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

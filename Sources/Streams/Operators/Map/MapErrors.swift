// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Transforms each value and replaces the source's error by `classify`'s (Combine's `map`
    /// then `mapError`), in one stage: `map(transform)` followed by `recover { .just(error: …) }`
    /// is two, each a watcher and an object per subscription, and every value passes through both.
    /// For a source in another library's terms (a client's answer and its errors) turned into the
    /// caller's.
    ///
    ///     source:                            -1-2-#(e)
    ///     map({ $0 * 10 }, errors: wrap):    -10-20-#(wrap(e))
    ///
    /// The end passes on as it is.
    @inlinable
    public func map<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) throws -> Result, errors classify: @escaping @Sendable (any Error) -> any Error
    ) -> DataStream<Result> {
        oneToOne { downstream in
            let stage = MapStage(transform: transform, downstream: downstream)
            return self.watch(using: Watcher(
                handingOnTo: downstream,
                onData: { [stage] value in try stage.receive(value) },
                onTerminal: { event in
                    switch event {
                    case .data: break
                    case .error(let error): downstream.error(classify(error))
                    case .end: downstream.end()
                    }
                }))
        }
    }
}

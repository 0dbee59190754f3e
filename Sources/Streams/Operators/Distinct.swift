// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType where Element: Hashable {
    /// Drops every value seen before (it remembers all of them).
    ///
    ///     source:     -1-2-1-3-2-|
    ///     distinct(): -1-2---3---|
    public func distinct() -> DataStream<Element> {
        DataStream { downstream in
            let seen = OperatorState<Set<Element>>([])
            return self.watch(using: Watcher.relay { event in
                switch event {
                case .data(let value):
                    if seen.withLock({ $0.insert(value).inserted }) { downstream.data(value) }
                case .error(let error): downstream.error(error)
                case .end:
                    seen.withLock { $0 = [] }
                    downstream.end()
                }
            })
        }
    }
}

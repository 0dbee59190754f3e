// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Turns values that are events back into events; the inverse of `materialize()`.
    ///
    ///     source:          -.data(1)-.data(2)-.error(#)|
    ///     dematerialize(): -1-2-#
    public func dematerialize<Value: Sendable>() -> DataStream<Value> where Element == Event<Value> {
        DataStream { downstream in
            self.watch(using: Watcher.relay { event in
                switch event {
                case .data(let inner): downstream.event(inner)
                case .error(let error): downstream.error(error)
                case .end: downstream.end()
                }
            })
        }
    }
}

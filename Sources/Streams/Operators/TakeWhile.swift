// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Passes values while `predicate` holds; ends at the first value that fails it.
    ///
    ///     source:                 -1-2-5-1-|
    ///     takeWhile { $0 < 3 }:   -1-2-|
    ///
    /// A throw from `predicate` is delivered as `.error` and disposes the upstream.
    public func takeWhile(_ predicate: @escaping @Sendable (Element) throws -> Bool) -> DataStream<Element> {
        DataStream { downstream in
            self.watch(using: Watcher.relay { event in
                switch event {
                case .data(let value):
                    do {
                        if try predicate(value) { downstream.data(value) } else { downstream.end() }
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

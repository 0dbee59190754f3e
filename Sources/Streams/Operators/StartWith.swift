// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Emits `value` first, then the source's events.
    ///
    ///     source:       ---1-2-|
    ///     startWith(0): 0--1-2-|
    public func startWith(_ value: Element) -> DataStream<Element> {
        startWith(data: [value])
    }

    /// Emits `values` first, in order, then the source's events.
    ///
    ///     source:                   ---3-|
    ///     startWith(data: [1, 2]):  1-2-3-|
    public func startWith(data values: [Element]) -> DataStream<Element> {
        DataStream { downstream in
            for value in values {
                if downstream.isStopped { return Disposable() }
                downstream.data(value)
            }
            return self.watch(using: downstream)
        }
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Drops every value and keeps only the terminal event (ReactiveX: ignoreElements).
    ///
    ///     source:       -1-2-3-|
    ///     ignoreData(): -------|
    public func ignoreData() -> DataStream<Element> {
        DataStream { downstream in
            self.watch(using: Watcher.relay { event in
                if event.isTerminal { downstream.event(event) }
            })
        }
    }
}

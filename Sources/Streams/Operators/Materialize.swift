// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Turns every event, the terminal one included, into a value; then ends.
    ///
    ///     source:        -1-2-#
    ///     materialize(): -.data(1)-.data(2)-.error(#)|
    public func materialize() -> DataStream<Event<Element>> {
        DataStream { downstream in
            self.watch(using: Watcher.relay { event in
                downstream.data(event)
                if event.isTerminal { downstream.end() }
            })
        }
    }
}

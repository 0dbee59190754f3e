// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Like `share()`, and a new watcher first receives the last `count` values
    /// of the current connection (ReactiveX: share(replay:)).
    ///
    ///     source:             -1-2-3-----|
    ///     replay(2), late B:         2-3-|
    public func replay(_ count: Int) -> DataStream<Element> {
        let connection = SharedConnection(source: self, bufferSize: count)
        return DataStream { watcher in connection.watch(using: watcher) }
    }
}

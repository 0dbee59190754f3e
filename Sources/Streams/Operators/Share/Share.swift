// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// One subscription to this stream shared by all current watchers
    /// (ReactiveX: share(), refcounted "while connected").
    ///
    ///     source:             -1-2-3-|      (watched once)
    ///     watcher A:          -1-2-3-|
    ///     watcher B (late):      -2-3-|
    ///
    /// The first watcher connects to the source; the source is disposed when the
    /// last watcher leaves. After the source ends, the next watcher connects anew.
    public func share() -> DataStream<Element> {
        replay(0)
    }
}

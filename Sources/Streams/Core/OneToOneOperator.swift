// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// The stream of a one-to-one operator (`map`, `filter`, `call`, …) over this one: `subscribe`
    /// watches this stream with a watcher made by `Watcher(handingOnTo: downstream, …)`.
    ///
    /// Over a `WatcherStoppingStream` the operator starts no subscription of its own: this
    /// stream's subscription of the operator's watcher is the one returned, and disposing it
    /// stops the downstream through that watcher. That saves a `Disposable`, its setup on the
    /// thread's pending stack and its disposal per operator subscription. Over any other stream it keeps a subscription of its own, which stops the
    /// downstream whatever the source's disposal does.
    ///
    /// `subscribe` is stored as it is, not wrapped: a wrapping closure would cost an allocation
    /// per operator built.
    @inlinable
    func oneToOne<Output: Sendable>(_ subscribe: @escaping @Sendable (Watcher<Output>) -> Disposable) -> DataStream<Output> {
        stopsItsWatchers ? DataStream.handingOn(subscribe) : DataStream(subscribe)
    }
}

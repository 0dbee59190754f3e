// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Runs side effects as events pass, without changing them (ReactiveX: do).
    ///
    ///     source:                 -1-2-|
    ///     call(data: { print }):  -1-2-|   (prints 1, 2)
    ///
    /// `watched` runs when a watcher subscribes, `disposed` when its subscription
    /// ends for any reason (end, error or dispose). A throw from `data` is
    /// delivered as `.error` and disposes the upstream.
    public func call(
        data: (@Sendable (Element) throws -> Void)? = nil,
        error: (@Sendable (Error) -> Void)? = nil,
        end: (@Sendable () -> Void)? = nil,
        watched: (@Sendable () -> Void)? = nil,
        disposed: (@Sendable () -> Void)? = nil
    ) -> DataStream<Element> {
        oneToOne { downstream in
            watched?()
            let stage = CallStage(data: data, error: error, end: end, disposed: disposed, downstream: downstream)
            let subscription = self.watch(using: Watcher(
                handingOnTo: stage,
                onData: { [stage] value in try stage.receive(value) },
                onTerminal: { [stage] event in stage.finish(event) }
            ))
            // Over a stream that does not stop its watchers, the operator's own subscription
            // (see `oneToOne`) reaches `disposed` through this.
            guard disposed != nil, !self.stopsItsWatchers else { return subscription }
            return Disposable {
                subscription.dispose()
                stage.runDisposed()
            }
        }
    }
}

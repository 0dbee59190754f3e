// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Instrumentation

extension StreamType {
    /// This stream, subscribed with `context` bound (RxJava/Reactor: `contextWrite`): its
    /// subscriptions, and the ones its operators start later on any thread, carry `context`
    /// (`ContextPropagation`), whatever context the subscriber has. A tracing stage runs its
    /// upstream inside its span this way.
    ///
    ///     let fetch = client.get(url).inContext(span.context)   // the attempts, retries and timers see span.context
    public func inContext(_ context: ServiceContext) -> DataStream<Element> {
        let watchBound: @Sendable (Watcher<Element>) -> Disposable = { watcher in
            ServiceContext.withValue(context) { self.watch(using: watcher) }
        }
        // A stream type that does not stop its watchers gets a subscription of ours, which does.
        return Self.self is any WatcherStoppingStream.Type ? DataStream.handingOn(watchBound) : DataStream(watchBound)
    }
}

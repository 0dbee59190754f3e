// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import CoreMetrics
import HTTP
import Streams

extension DataStream {
    /// This stream, counting its live subscriptions in `gauge` (up on subscribe,
    /// down exactly once when it ends, fails or is disposed). The slow twin of
    /// `EventStreamBody.make(…opened:closed:)`, which counts on the body's own gate
    /// (`SubscriberCountTests` checks that they agree).
    func counted(in gauge: Meter?) -> DataStream<Element> {
        guard let gauge else { return self }
        return DataStream.deferred {
            let counted = OnceFlag()
            let release: @Sendable () -> Void = { if counted.set() { gauge.decrement() } }
            return self.call(error: { _ in release() }, end: release, watched: { gauge.increment() }, disposed: release)
        }
    }
}

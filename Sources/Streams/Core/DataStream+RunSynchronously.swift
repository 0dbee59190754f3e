// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension DataStream {
    /// Runs a synchronous in-memory stream (`just`, `from`, `empty`, `just(error:)` and the
    /// fused operators over them, see `SynchronousSource`) to its end on the calling thread
    /// without a subscription, handing each event to `body` until it returns false, and
    /// returns true; for any other stream it runs nothing and returns false (then `watch` it).
    ///
    /// For an engine that consumes such streams by the thousand, such as an HTTP server taking
    /// a handler's response: a `watch` builds a watcher, its closures and a subscription, and
    /// tears them down again, for every call; this runs no subscription at all. The events and
    /// their grammar are those `watch` would deliver; nothing
    /// can dispose the run from outside, since no subscription exists.
    package func runSynchronously(_ body: (Event<Element>) -> Bool) -> Bool {
        guard let source = synchronousSource else { return false }
        var stopped = false
        do {
            // `nothing` is never disposed, so only `body` stops the source.
            try source.run(Disposable.nothing) { value in
                PendingSubscriptions.outsideSetup { stopped = !body(.data(value)) }
                return !stopped
            }
            if !stopped { PendingSubscriptions.outsideSetup { _ = body(.end) } }
        } catch {
            if !stopped { PendingSubscriptions.outsideSetup { _ = body(.error(error)) } }
        }
        return true
    }
}

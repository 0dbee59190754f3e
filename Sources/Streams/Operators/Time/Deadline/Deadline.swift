// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// The stream of `timeout` and `take(for:)`: one `DeadlineStage` per subscription, armed at
    /// once, that hands its downstream on (`oneToOne`).
    func deadline(_ dueTime: Duration, scheduler: any Scheduler, expiry: DeadlineExpiry<Element>) -> DataStream<Element> {
        oneToOne { downstream in
            let stage = DeadlineStage(dueTime: dueTime, scheduler: scheduler, expiry: expiry, downstream: downstream)
            stage.arm(after: dueTime)
            let upstream = self.watch(using: Watcher(
                handingOnTo: stage,
                onData: { [stage] value in try stage.receive(value) },
                onTerminal: { [stage] event in stage.finish(event) }
            ))
            stage.attach(upstream)
            // Over a stream that does not stop its watchers, disposing the operator's own subscription
            // (see `oneToOne`) must reach the stage to cancel the timer.
            guard !self.stopsItsWatchers else { return upstream }
            return Disposable {
                upstream.dispose()
                stage.stop()
            }
        }
    }
}

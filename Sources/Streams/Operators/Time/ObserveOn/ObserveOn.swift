// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Delivers every event on `scheduler`, in the original order and one at a time.
    ///
    ///     source (thread A):        -a-b-c|
    ///     observe(on: S) (on S):    --a-b-c|
    ///
    /// Values queue up while a delivery is pending, at most as many as `buffer` allows
    /// (`BufferLimit.default`: fail past 65,536 waiting values); disposing drops them and
    /// cancels the pending delivery. ReactiveX: `observeOn`; Combine: `receive(on:)`;
    /// ReactiveCocoa: `observe(on:)`.
    ///
    ///     source:                      -1-2-3-4-|   (consumer busy until 4 has arrived)
    ///     observe(on: S, buffer: .dropOldest(2)):  ------3-4-|   (droppedCount 2)
    public func observe(on scheduler: any Scheduler, buffer: BufferLimit = .default) -> DataStream<Element> {
        DataStream { downstream in
            let delivery = ScheduledDelivery(to: downstream, on: scheduler, limit: buffer)
            let upstream = watch { event in delivery.enqueue(event) }
            return Disposable {
                upstream.dispose()
                delivery.cancel()
            }
        }
    }
}

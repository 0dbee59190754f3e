// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Passes values for `duration` from the subscription, then disposes the source and ends,
    /// sending `last` first when given (ReactiveX: `take(for:scheduler:)`, RxJava's
    /// `take(time, unit, scheduler)`). A source that ends or fails first passes that on, without `last`.
    ///
    ///     source:                      -a-b---c-d-|
    ///     take(for: 6):                -a-b--|
    ///     take(for: 6, last: x):       -a-b--(x|)
    ///     source:                      -a-|
    ///     take(for: 6, last: x):       -a-|
    ///
    /// One stage and one timer per subscription, where `takeUntil(timer)` followed by a
    /// conditional `concat` (its slow twin in `TakeForTests`) builds ten.
    public func take(for duration: Duration, scheduler: any Scheduler, last: Element? = nil) -> DataStream<Element> {
        deadline(duration, scheduler: scheduler, expiry: .span(last: last))
    }
}

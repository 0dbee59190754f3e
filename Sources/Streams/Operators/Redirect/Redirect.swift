// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Maps each value to a stream and merges their values as they come
    /// (ReactiveX: flatMap / mergeMap). Ends when this stream and every inner
    /// stream have ended; the first error fails it and disposes everything.
    ///
    ///     source:                  -a-----b-|
    ///     redirect { inner($0) }:  --a1-a2-b1-a3-b2-|
    ///
    /// With `maxConcurrent`, at most that many inner streams run at once; the
    /// values waiting for a slot are queued in order. A synchronous inner that
    /// ends at once lets the next one start in a loop, never by recursion, so
    /// 100,000 of them in a row use constant stack. A throw from `transform` is
    /// delivered as `.error`.
    @inlinable
    public func redirect<Inner: StreamType>(
        maxConcurrent: Int = .max, _ transform: @escaping @Sendable (Element) throws -> Inner
    ) -> DataStream<Inner.Element> {
        redirectAny(maxConcurrent: maxConcurrent) { value in RedirectInner(try transform(value)) }
    }

    /// `redirect` over inner streams told apart as `RedirectInner`s, the common core of redirect,
    /// concatMap and concat.
    @inlinable
    func redirectAny<Value: Sendable>(
        maxConcurrent: Int, _ transform: @escaping @Sendable (Element) throws -> RedirectInner<Value>
    ) -> DataStream<Value> {
        let limit = max(1, maxConcurrent)
        // The operator's own subscription holds the outer and the inners (`DataStream.holding`):
        // a disposable of its own for them, and before that a wrapping one with its closure
        // context, cost an allocation more per subscription.
        return DataStream.holding { downstream, subscription in
            let redirection = Redirection(limit: limit, transform: transform, downstream: downstream, inners: subscription)
            let outer = self.watch(using: Watcher(
                onData: { [redirection] value in redirection.outerData(value) },
                onTerminal: { [redirection] event in redirection.outerTerminal(event) }
            ))
            subscription.link(outer)
        }
    }
}

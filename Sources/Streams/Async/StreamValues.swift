// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// The stream's values as an `AsyncThrowingStream`: `for try await x in stream.values`.
    ///
    /// Watching starts when this property is read. Ending the iteration early,
    /// or cancelling the iterating task, disposes the subscription; an error
    /// event is thrown from the loop. Values wait while the consumer is busy,
    /// bounded by `BufferLimit.default` (the loop throws `BufferOverflowError`
    /// past 65,536 waiting values); choose another policy with `values(buffer:)`.
    /// A synchronous endless source never lets the property return, as
    /// with any synchronous watch.
    public var values: AsyncThrowingStream<Element, Error> {
        values(buffer: .default)
    }

    /// The stream's values as an `AsyncThrowingStream` whose waiting values are bounded
    /// by `buffer` (Combine: `values` with a `buffer(size:prefetch:whenFull:)` before it;
    /// RxSwift: `values`, unbounded).
    ///
    ///     for try await x in stream.values(buffer: .dropOldest(1)) { … }   // always the latest
    ///
    /// `.fail` ends the loop with `BufferOverflowError` after the waiting values and
    /// disposes the subscription; the drops are counted in `buffer.droppedCount`.
    public func values(buffer limit: BufferLimit) -> AsyncThrowingStream<Element, Error> {
        let policy: AsyncThrowingStream<Element, Error>.Continuation.BufferingPolicy
        switch (limit.capacity, limit.overflow) {
        case (.max, _): policy = .unbounded
        case (let capacity, .dropOldest): policy = .bufferingNewest(capacity)
        case (let capacity, _): policy = .bufferingOldest(capacity)
        }
        return AsyncThrowingStream(bufferingPolicy: policy) { continuation in
            let subscription = SerialDisposable()
            continuation.onTermination = { _ in subscription.dispose() }
            subscription.replace(with: self.watch { event in
                switch event {
                case .data(let value):
                    if case .dropped = continuation.yield(value) {
                        limit.recordDrop()
                        if limit.overflow == .fail {
                            continuation.finish(throwing: BufferOverflowError(capacity: limit.capacity))
                        }
                    }
                case .error(let error): continuation.finish(throwing: error)
                case .end: continuation.finish()
                }
            })
        }
    }

    /// The first value, or nil if the stream ends without one; throws the
    /// stream's error, or `CancellationError` when the task is cancelled
    /// (which disposes the subscription).
    ///
    ///     let users = try await stream.toArray().first()
    public func first() async throws -> Element? {
        for try await value in take(1).values {
            return value
        }
        try Task.checkCancellation()
        return nil
    }

    /// All values once the stream ends; throws its error, or `CancellationError`
    /// when the task is cancelled.
    public func array() async throws -> [Element] {
        try await toArray().first() ?? []
    }
}

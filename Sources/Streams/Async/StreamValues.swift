extension StreamType {
    /// The stream's values as an `AsyncThrowingStream`: `for try await x in stream.values`.
    ///
    /// Watching starts when this property is read. Ending the iteration early,
    /// or cancelling the iterating task, disposes the subscription; an error
    /// event is thrown from the loop. Values are buffered while the consumer is
    /// busy. A synchronous endless source never lets the property return, as
    /// with any synchronous watch.
    public var values: AsyncThrowingStream<Element, Error> {
        AsyncThrowingStream { continuation in
            let subscription = SerialDisposable()
            continuation.onTermination = { _ in subscription.dispose() }
            subscription.replace(with: self.watch { event in
                switch event {
                case .data(let value): continuation.yield(value)
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

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
        DataStream { downstream in
            watched?()
            let subscription = self.watch(using: Watcher.relay { event in
                switch event {
                case .data(let value):
                    do {
                        try data?(value)
                        downstream.data(value)
                    } catch let failure {
                        downstream.error(failure)
                    }
                case .error(let failure):
                    error?(failure)
                    downstream.error(failure)
                case .end:
                    end?()
                    downstream.end()
                }
            })
            guard let disposed else { return subscription }
            return Disposable {
                subscription.dispose()
                disposed()
            }
        }
    }
}

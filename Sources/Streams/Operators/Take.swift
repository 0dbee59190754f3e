extension StreamType {
    /// Passes the first `count` values, then ends and disposes the upstream.
    ///
    ///     source:  -1-2-3-4-|
    ///     take(2): -1-2|
    ///
    /// `take(0)` ends at once without watching the source.
    public func take(_ count: Int) -> DataStream<Element> {
        guard count > 0 else { return .empty() }
        if let source = fusable { return DataStream(synchronous: source.take(count)) }
        return DataStream { downstream in
            let remaining = OperatorState(count)
            return self.watch(using: Watcher.relay { event in
                switch event {
                case .data(let value):
                    let left = remaining.withLock { remaining -> Int in
                        remaining -= 1
                        return remaining
                    }
                    guard left >= 0 else { return }
                    downstream.data(value)
                    if left == 0 { downstream.end() }
                case .error(let error): downstream.error(error)
                case .end: downstream.end()
                }
            })
        }
    }
}

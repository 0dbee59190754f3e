extension StreamType {
    /// Transforms each value.
    ///
    ///     source:          -1-2-3-|
    ///     map { $0 * 10 }: -10-20-30-|
    ///
    /// A throw from `transform` is delivered as `.error` and disposes the upstream.
    public func map<Result: Sendable>(_ transform: @escaping @Sendable (Element) throws -> Result) -> DataStream<Result> {
        DataStream { downstream in
            self.watch(using: Watcher { event in
                switch event {
                case .data(let value):
                    do { downstream.data(try transform(value)) } catch { downstream.error(error) }
                case .error(let error): downstream.error(error)
                case .end: downstream.end()
                }
            })
        }
    }
}

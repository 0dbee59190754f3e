extension StreamType {
    /// Transforms each value and drops the `nil` results.
    ///
    ///     source:                 -"1"-"x"-"3"-|
    ///     compactMap { Int($0) }: -1-------3---|
    ///
    /// A throw from `transform` is delivered as `.error` and disposes the upstream.
    public func compactMap<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) throws -> Result?
    ) -> DataStream<Result> {
        DataStream { downstream in
            self.watch(using: Watcher { event in
                switch event {
                case .data(let value):
                    do { if let result = try transform(value) { downstream.data(result) } } catch { downstream.error(error) }
                case .error(let error): downstream.error(error)
                case .end: downstream.end()
                }
            })
        }
    }
}

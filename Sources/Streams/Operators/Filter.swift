extension StreamType {
    /// Lets through only the values `isIncluded` accepts.
    ///
    ///     source:                 -1-2-3-4-|
    ///     filter { $0 % 2 == 0 }: ---2---4-|
    ///
    /// A throw from `isIncluded` is delivered as `.error` and disposes the upstream.
    @inlinable @inline(__always)
    public func filter(_ isIncluded: @escaping @Sendable (Element) throws -> Bool) -> DataStream<Element> {
        if let source = fusable { return DataStream(synchronous: source.filter(isIncluded)) }
        return watchingFilter(isIncluded)
    }

    /// `filter` over a stream that is not fused: a watcher per subscription.
    @inlinable
    func watchingFilter(_ isIncluded: @escaping @Sendable (Element) throws -> Bool) -> DataStream<Element> {
        DataStream { downstream in
            self.watch(using: Watcher(forwardingTerminalsTo: downstream) { value in
                do { if try isIncluded(value) { downstream.data(value) } } catch { downstream.error(error) }
            })
        }
    }
}

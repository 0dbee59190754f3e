extension StreamType {
    /// Transforms each value.
    ///
    ///     source:          -1-2-3-|
    ///     map { $0 * 10 }: -10-20-30-|
    ///
    /// A throw from `transform` is delivered as `.error` and disposes the upstream.
    @inlinable
    public func map<Result: Sendable>(_ transform: @escaping @Sendable (Element) throws -> Result) -> DataStream<Result> {
        DataStream { downstream in
            let stage = MapStage(transform: transform, downstream: downstream)
            return self.watch(using: Watcher(forwardingTerminalsTo: downstream) { [stage] value in stage.receive(value) })
        }
    }
}

/// One `map` subscription. The value closure captures only this object, so a
/// value goes straight to `receive` without unpacking a closure context.
@usableFromInline
final class MapStage<Input: Sendable, Output: Sendable>: Sendable {
    @usableFromInline let transform: @Sendable (Input) throws -> Output
    @usableFromInline let downstream: Watcher<Output>

    @inlinable
    init(transform: @escaping @Sendable (Input) throws -> Output, downstream: Watcher<Output>) {
        self.transform = transform
        self.downstream = downstream
    }

    @inlinable
    func receive(_ value: Input) {
        do { downstream.data(try transform(value)) } catch { downstream.error(error) }
    }
}

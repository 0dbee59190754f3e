extension StreamType {
    /// The stream of a one-to-one operator (`map`, `filter`, `call`, …) over this one: `subscribe`
    /// watches this stream with a watcher made by `Watcher(handingOnTo: downstream, …)`.
    ///
    /// Over a `WatcherStoppingStream` the operator starts no subscription of its own: this
    /// stream's subscription of the operator's watcher is the one returned, and disposing it
    /// stops the downstream through that watcher. That saves a `Disposable`, its setup on the
    /// thread's pending stack and its disposal per operator subscription: 7 per avatar on
    /// `/users`. Over any other stream it keeps a subscription of its own, which stops the
    /// downstream whatever the source's disposal does.
    @inlinable
    func oneToOne<Output: Sendable>(_ subscribe: @escaping @Sendable (Watcher<Output>) -> Disposable) -> DataStream<Output> {
        guard stopsItsWatchers else { return DataStream(subscribe) }
        return DataStream.handingOn { downstream in
            // A subscription of its own would have found the watcher stopped and started nothing.
            guard !downstream.isStopped else { return Disposable.alreadyDisposed }
            return subscribe(downstream)
        }
    }
}

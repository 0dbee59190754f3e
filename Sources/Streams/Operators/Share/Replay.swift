extension StreamType {
    /// Like `share()`, and a new watcher first receives the last `count` values
    /// of the current connection (ReactiveX: share(replay:)).
    ///
    ///     source:             -1-2-3-----|
    ///     replay(2), late B:         2-3-|
    public func replay(_ count: Int) -> DataStream<Element> {
        let connection = SharedConnection(source: self, bufferSize: count)
        return DataStream { watcher in connection.watch(using: watcher) }
    }
}

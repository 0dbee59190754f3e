extension StreamType {
    /// Drops every value and keeps only the terminal event (ReactiveX: ignoreElements).
    ///
    ///     source:       -1-2-3-|
    ///     ignoreData(): -------|
    public func ignoreData() -> DataStream<Element> {
        DataStream { downstream in
            self.watch(using: Watcher.relay { event in
                if event.isTerminal { downstream.event(event) }
            })
        }
    }
}

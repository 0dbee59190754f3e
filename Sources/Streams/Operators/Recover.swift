extension StreamType {
    /// Replaces an error with `value` followed by the end (ReactiveX: catchAndReturn).
    ///
    ///     source:      -1-2-#
    ///     recover(9):  -1-2-9|
    public func recover(_ value: Element) -> DataStream<Element> {
        recover { _ in DataStream.just(value) }
    }

    /// Replaces an error with the stream `handler` returns for it (ReactiveX: catch).
    ///
    ///     source:                  -1-2-#
    ///     fallback:                      -8-9-|
    ///     recover { _ in fallback }: -1-2-8-9-|
    ///
    /// A throw from `handler` is delivered as `.error`.
    public func recover<Fallback: StreamType>(
        _ handler: @escaping @Sendable (Error) throws -> Fallback
    ) -> DataStream<Element> where Fallback.Element == Element {
        DataStream { downstream in
            // Holds the fallback subscription, even while it is still being set up, and the
            // source's: one disposable for both (a second one and its closure cost 2 allocations).
            let fallback = Disposable()
            let source = self.watch(using: Watcher.relay { event in
                switch event {
                case .data(let value): downstream.data(value)
                case .end: downstream.end()
                case .error(let error):
                    do {
                        let next = try handler(error)
                        PendingSubscriptions.watch(under: fallback) { next.watch(using: downstream) }
                    } catch {
                        downstream.error(error)
                    }
                }
            })
            fallback.link(source)
            return fallback
        }
    }
}

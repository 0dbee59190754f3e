// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Maps each value to a stream and follows only the newest one, disposing
    /// the previous (ReactiveX: switchMap / flatMapLatest). Ends when this
    /// stream has ended and the newest inner stream too.
    ///
    ///     source:                       -a-----b-------|
    ///     inner(a):                      -a1-a2-a3 (disposed when b arrives)
    ///     inner(b):                            -b1-b2-|
    ///     redirectLatest { inner($0) }: --a1-a2--b1-b2-|
    ///
    /// An inner stream's events are never delivered once a newer value has
    /// arrived, even if they race on another thread. A throw from `transform`
    /// is delivered as `.error`.
    public func redirectLatest<Inner: StreamType>(
        _ transform: @escaping @Sendable (Element) throws -> Inner
    ) -> DataStream<Inner.Element> {
        DataStream { downstream in
            let sink = SerializedSink(LatestInnerState(), downstream: downstream)
            let current = SerialDisposable()
            let context = ContextPropagation.capture()
            let outer = self.watch(using: Watcher.relay { event in
                switch event {
                case .data(let value):
                    let generation = sink.update { state, _ -> UInt64 in
                        state.generation += 1
                        state.innerRunning = true
                        return state.generation
                    }
                    // Holds this inner subscription, even while it is still being set up.
                    let slot = Disposable(carrying: context)
                    current.replace(with: slot)
                    let inner: Inner
                    do {
                        inner = try transform(value)
                    } catch {
                        sink.update { _, outbox in outbox.error(error) }
                        return
                    }
                    PendingSubscriptions.watch(under: slot) { inner.watch(using: Watcher.relay { event in
                        sink.update { state, outbox in
                            guard state.generation == generation else { return }
                            switch event {
                            case .data(let value): outbox.data(value)
                            case .error(let error): outbox.error(error)
                            case .end:
                                state.innerRunning = false
                                if state.outerEnded { outbox.end() }
                            }
                        }
                    }) }
                case .error(let error):
                    sink.update { _, outbox in outbox.error(error) }
                case .end:
                    sink.update { state, outbox in
                        state.outerEnded = true
                        if !state.innerRunning { outbox.end() }
                    }
                }
            })
            return Disposable {
                outer.dispose()
                current.dispose()
            }
        }
    }
}

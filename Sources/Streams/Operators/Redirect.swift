extension StreamType {
    /// Maps each value to a stream and merges their values as they come
    /// (ReactiveX: flatMap / mergeMap). Ends when this stream and every inner
    /// stream have ended; the first error fails it and disposes everything.
    ///
    ///     source:                  -a-----b-|
    ///     redirect { inner($0) }:  --a1-a2-b1-a3-b2-|
    ///
    /// With `maxConcurrent`, at most that many inner streams run at once; the
    /// values waiting for a slot are queued in order. A synchronous inner that
    /// ends at once lets the next one start in a loop, never by recursion, so
    /// 100,000 of them in a row use constant stack. A throw from `transform` is
    /// delivered as `.error`.
    @inlinable
    public func redirect<Inner: StreamType>(
        maxConcurrent: Int = .max, _ transform: @escaping @Sendable (Element) throws -> Inner
    ) -> DataStream<Inner.Element> {
        redirectAny(maxConcurrent: maxConcurrent) { value -> any StreamType<Inner.Element> in try transform(value) }
    }

    /// `redirect` over existential inner streams, the common core of redirect, concatMap and concat.
    @inlinable
    func redirectAny<Value: Sendable>(
        maxConcurrent: Int, _ transform: @escaping @Sendable (Element) throws -> any StreamType<Value>
    ) -> DataStream<Value> {
        let limit = max(1, maxConcurrent)
        return DataStream { downstream in
            let sink = SerializedSink(RedirectState<Element>(), downstream: downstream)
            // Holds the running inner subscriptions, even while they are still being set up.
            let inners = Disposable()
            let starter = Trampoline()

            // Starts waiting inner streams while slots are free; run only through `starter`.
            @Sendable func startWaiting() {
                while !downstream.isStopped {
                    let next = sink.update { state, _ -> Element? in
                        guard state.active < limit, let value = state.waiting.popFirst() else { return nil }
                        state.active += 1
                        return value
                    }
                    guard let value = next else { return }
                    start(value)
                }
            }

            // Watches the inner stream for `value`, whose slot is already counted in `active`.
            @Sendable func start(_ value: Element) {
                guard !inners.isDisposed else { return }
                let inner: any StreamType<Value>
                do {
                    inner = try transform(value)
                } catch {
                    sink.update { _, outbox in outbox.error(error) }
                    return
                }
                PendingSubscriptions.watch(under: inners) {
                    inner.watch(using: Watcher(
                        onData: { value in sink.update { _, outbox in outbox.data(value) } },
                        onTerminal: { event in
                            if case .error(let error) = event {
                                sink.update { _, outbox in outbox.error(error) }
                                return
                            }
                            let startMore = sink.update { state, outbox -> Bool in
                                state.active -= 1
                                if state.isFinished { outbox.end() }
                                return !state.waiting.isEmpty
                            }
                            if startMore { starter.request(startWaiting) }
                        }
                    ))
                }
            }

            let outer = self.watch(using: Watcher(
                onData: { value in
                    // A free slot and nobody waiting: start at once, skipping the queue.
                    let startNow = sink.update { state, _ -> Bool in
                        if state.waiting.isEmpty, state.active < limit {
                            state.active += 1
                            return true
                        }
                        state.waiting.append(value)
                        return false
                    }
                    if startNow { start(value) } else { starter.request(startWaiting) }
                },
                onTerminal: { event in
                    sink.update { state, outbox in
                        if case .error(let error) = event {
                            outbox.error(error)
                            return
                        }
                        state.outerEnded = true
                        if state.isFinished { outbox.end() }
                    }
                }
            ))
            return Disposable {
                outer.dispose()
                inners.dispose()
            }
        }
    }
}

/// What `redirect` tracks: running inner streams and source values waiting for a slot.
@usableFromInline
struct RedirectState<Element> {
    @usableFromInline var active = 0
    @usableFromInline var waiting = RingBuffer<Element>()
    @usableFromInline var outerEnded = false

    @inlinable
    init() {}

    @inlinable
    var isFinished: Bool { outerEnded && active == 0 && waiting.isEmpty }
}

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
            let redirection = Redirection(limit: limit, transform: transform, downstream: downstream)
            let outer = self.watch(using: Watcher(
                onData: { [redirection] value in redirection.outerData(value) },
                onTerminal: { [redirection] event in redirection.outerTerminal(event) }
            ))
            return Disposable {
                outer.dispose()
                redirection.inners.dispose()
            }
        }
    }
}

/// One `redirect` subscription: the running inner streams and the source values
/// waiting for a slot. Its watchers' closures capture only this object, so an
/// inner stream costs no closure context.
@usableFromInline
final class Redirection<Element: Sendable, Value: Sendable>: Sendable {
    @usableFromInline let sink: SerializedSink<RedirectState<Element>, Value>
    /// Holds the running inner subscriptions, even while they are still being set up.
    @usableFromInline let inners = Disposable()
    @usableFromInline let starter = Trampoline()
    @usableFromInline let limit: Int
    @usableFromInline let transform: @Sendable (Element) throws -> any StreamType<Value>
    @usableFromInline let downstream: Watcher<Value>

    @inlinable
    init(limit: Int, transform: @escaping @Sendable (Element) throws -> any StreamType<Value>, downstream: Watcher<Value>) {
        sink = SerializedSink(RedirectState(), downstream: downstream)
        self.limit = limit
        self.transform = transform
        self.downstream = downstream
    }

    @inlinable
    func outerData(_ value: Element) {
        // A free slot and nobody waiting: start at once, skipping the queue.
        let limit = self.limit
        let startNow = sink.update { state, _ -> Bool in
            if state.waiting.isEmpty, state.active < limit {
                state.active += 1
                return true
            }
            state.waiting.append(value)
            return false
        }
        if startNow { start(value) } else { starter.request(startWaiting) }
    }

    @inlinable
    func outerTerminal(_ event: Event<Element>) {
        sink.update { state, outbox in
            if case .error(let error) = event {
                outbox.error(error)
                return
            }
            state.outerEnded = true
            if state.isFinished { outbox.end() }
        }
    }

    /// Starts waiting inner streams while slots are free; run only through `starter`.
    @inlinable
    func startWaiting() {
        let limit = self.limit
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

    /// Watches the inner stream for `value`, whose slot is already counted in `active`.
    @inlinable
    func start(_ value: Element) {
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
                onData: { [self] value in sink.update { _, outbox in outbox.data(value) } },
                onTerminal: { [self] event in innerTerminal(event) }
            ))
        }
    }

    @inlinable
    func innerTerminal(_ event: Event<Value>) {
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

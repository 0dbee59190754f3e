// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// One `redirect` subscription: the running inner streams and the source values
/// waiting for a slot. Its watchers' closures capture only this object, so an
/// inner stream costs no closure context.
///
/// It is the sink ordering its events itself (a subclass, not a field): one allocation fewer
/// per subscription.
// @unchecked: its state is the sink's, only touched under the sink's lock; the rest are `let`s.
@usableFromInline
final class Redirection<Element: Sendable, Value: Sendable>: SerializedSink<RedirectState<Element>, Value>, @unchecked Sendable {
    /// The operator's subscription (`DataStream.holding`): holds the source's subscription and
    /// the running inner ones, even while they are still being set up.
    @usableFromInline let inners: Disposable
    @usableFromInline let starter = Trampoline()
    @usableFromInline let limit: Int
    @usableFromInline let transform: @Sendable (Element) throws -> RedirectInner<Value>

    @inlinable
    init(
        limit: Int, transform: @escaping @Sendable (Element) throws -> RedirectInner<Value>, downstream: Watcher<Value>,
        inners: Disposable
    ) {
        self.inners = inners
        self.limit = limit
        self.transform = transform
        super.init(RedirectState(), downstream: downstream)
    }

    @inlinable
    func outerData(_ value: Element) {
        // A free slot and nobody waiting: start at once, skipping the queue.
        let limit = self.limit
        let startNow = update { state, _ -> Bool in
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
        update { state, outbox in
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
            let next = update { state, _ -> Element? in
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
        let inner: RedirectInner<Value>
        do {
            inner = try transform(value)
        } catch {
            update { _, outbox in outbox.error(error) }
            return
        }
        // Consumed: a copy went through the enum's value witnesses, and its destroy after (~110
        // instructions per inner stream).
        switch consume inner {
        case .inline(let source):
            runInline(source)
        case .watched(let stream):
            PendingSubscriptions.watch(under: inners) {
                stream.watch(using: Watcher(
                    onData: { [self] value in update { _, outbox in outbox.data(value) } },
                    onTerminal: { [self] event in innerTerminal(event) }
                ))
            }
        }
    }

    /// Runs a fused synchronous inner stream in place of a subscription: its values go
    /// through the sink as an inner watcher's would, its return or throw ends the inner.
    /// Stops when the redirect is disposed (`inners`) or its watcher has stopped.
    @inlinable
    func runInline(_ source: SynchronousSource<Value>) {
        var failure: Error?
        PendingSubscriptions.run(under: inners) {
            do {
                try source.run(inners) { [self] value in
                    update { _, outbox in outbox.data(value) }
                    return !downstream.isStopped
                }
            } catch {
                failure = error
            }
        }
        guard !inners.isDisposed, !downstream.isStopped else { return }
        if let failure { innerTerminal(.error(failure)) } else { innerTerminal(.end) }
    }

    @inlinable
    func innerTerminal(_ event: Event<Value>) {
        if case .error(let error) = event {
            update { _, outbox in outbox.error(error) }
            return
        }
        let startMore = update { state, outbox -> Bool in
            state.active -= 1
            if state.isFinished { outbox.end() }
            return !state.waiting.isEmpty
        }
        if startMore { starter.request(startWaiting) }
    }
}

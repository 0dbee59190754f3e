// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// One `recover` subscription: the handler and the downstream, which the source's values go
/// straight to, and which the fallback feeds after an error.
///
/// While the source runs, a subscription costs this object and the watcher, as a `map` does:
/// the source's subscription is the one returned, with no container of recover's own (which
/// would be set up as pending, linked and disposed on every subscription: no allocation or
/// link of recover's own while the source runs; figures in Benchmarks/README.md, "Streams
/// ledger"). After an error the source's
/// subscription, disposed by it, is handed over to a container holding the fallback's
/// (`Disposable.handOver(to:)`), so disposing what recover returned still reaches the fallback.
// @unchecked: `source` and `earlyError` are only touched between `lock.lock()` and `lock.unlock()`.
final class RecoverStage<Element: Sendable, Fallback: StreamType>: @unchecked Sendable where Fallback.Element == Element {
    let handler: @Sendable (Error) throws -> Fallback
    let downstream: Watcher<Element>
    private let lock = SpinLock()
    /// The source's subscription, once its `watch` has returned it.
    @exclusivity(unchecked) private var source: Disposable?
    /// An error that came before that (a synchronous source): the fallback is watched as
    /// `watch` returns, in the source's place.
    @exclusivity(unchecked) private var earlyError: (any Error)?
    /// The context current as recover was subscribed (the source's), which its fallback is
    /// started in from whatever thread delivers the error (`ContextPropagation`).
    private let context = ContextPropagation.capture()

    init(handler: @escaping @Sendable (Error) throws -> Fallback, downstream: Watcher<Element>) {
        self.handler = handler
        self.downstream = downstream
    }

    /// The source's `watch` returned `source`: what the operator returns.
    func watched(_ source: Disposable) -> Disposable {
        // Before anyone else can dispose it (not `!source.isDisposed`: an error on another
        // thread may have disposed it and be on its way to `finish`).
        source.expectSuccessor()
        lock.lock()
        self.source = source
        let early = earlyError.take()
        lock.unlock()
        guard let early, let next = fallback(for: early) else { return source }
        // Set up where the source was, under whatever subscription is being set up around it.
        return next.watch(using: downstream)
    }

    /// The end passes on; an error is replaced by the handler's stream, or by its throw.
    func finish(_ event: Event<Element>) {
        switch event {
        case .data:
            break
        case .end:
            downstream.end()
        case .error(let error):
            lock.lock()
            guard let source else {
                earlyError = error
                lock.unlock()
                return
            }
            lock.unlock()
            guard let next = fallback(for: error) else { return }
            // Handed over before the fallback is set up, so disposing the source's subscription
            // during that setup (a synchronous fallback) reaches it through `fallbacks`.
            let fallbacks = Disposable(carrying: context)
            source.handOver(to: fallbacks)
            PendingSubscriptions.watch(under: fallbacks) { next.watch(using: downstream) }
        }
    }

    /// The handler's stream for `error`, or nil when the handler threw (the downstream failed).
    private func fallback(for error: any Error) -> Fallback? {
        do {
            return try handler(error)
        } catch {
            downstream.error(error)
            return nil
        }
    }
}

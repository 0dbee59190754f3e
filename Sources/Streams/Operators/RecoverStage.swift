/// One `recover` subscription: the handler, the downstream, and one disposable holding both
/// the source's subscription and the fallback's (even while it is still being set up).
///
/// The watcher's terminal closure captures only this object and the values go straight to
/// the downstream, and the downstream is handed on (`oneToOne`), so the fallback feeds it
/// directly: a subscription costs this object, its disposable and the watcher, where a
/// closure context, a relay's context and a subscription of its own took 2 allocations more,
/// and a fallback a forwarding watcher more (about 7 per avatar on `/users`, three `recover`s
/// per avatar).
final class RecoverStage<Element: Sendable, Fallback: StreamType>: Sendable where Fallback.Element == Element {
    let handler: @Sendable (Error) throws -> Fallback
    let downstream: Watcher<Element>
    /// Disposes the source's subscription and the fallback's; what the operator returns.
    let subscriptions = Disposable()

    init(handler: @escaping @Sendable (Error) throws -> Fallback, downstream: Watcher<Element>) {
        self.handler = handler
        self.downstream = downstream
    }

    /// The end passes on; an error is replaced by the handler's stream, or by its throw.
    func finish(_ event: Event<Element>) {
        switch event {
        case .data:
            break
        case .end:
            downstream.end()
        case .error(let error):
            do {
                let next = try handler(error)
                PendingSubscriptions.watch(under: subscriptions) { next.watch(using: downstream) }
            } catch {
                downstream.error(error)
            }
        }
    }
}

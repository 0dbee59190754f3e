import Synchronization

/// Receives a stream's events.
///
/// A watcher enforces the grammar `data* (error | end)?` for whoever feeds it:
/// after its first terminal event, or once its subscription is disposed, it
/// ignores everything. Events are delivered on the calling thread.
public final class Watcher<Element: Sendable>: Sendable {
    private let handler: @Sendable (Event<Element>) -> Void
    private let stopped = Atomic<Bool>(false)
    /// Whether some subscription already feeds this watcher; a second one gets a forwarding watcher.
    private let claimed = Atomic<Bool>(false)
    /// Disposed when this watcher receives a terminal event, so the stream feeding it frees its resources.
    private let subscription = Locked<Disposable?>(nil)

    /// A watcher that hands every event to `handler`.
    public init(_ handler: @escaping @Sendable (Event<Element>) -> Void) {
        self.handler = handler
    }

    /// A watcher with one closure per kind of event; any may be left out.
    public convenience init(
        data: (@Sendable (Element) -> Void)? = nil,
        error: (@Sendable (Error) -> Void)? = nil,
        end: (@Sendable () -> Void)? = nil
    ) {
        self.init { event in
            switch event {
            case .data(let value): data?(value)
            case .error(let failure): error?(failure)
            case .end: end?()
            }
        }
    }

    /// Whether this watcher has stopped listening (terminal event received, or disposed).
    public var isStopped: Bool { stopped.load(ordering: .relaxed) }

    public func data(_ value: Element) {
        guard !stopped.load(ordering: .relaxed) else { return }
        handler(.data(value))
    }

    public func error(_ error: Error) {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        finishSubscription()
        handler(.error(error))
    }

    public func end() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        finishSubscription()
        handler(.end)
    }

    public func event(_ event: Event<Element>) {
        switch event {
        case .data(let value): data(value)
        case .error(let failure): error(failure)
        case .end: end()
        }
    }

    /// Stops delivery without a terminal event (the subscription was disposed).
    func stop() {
        stopped.store(true, ordering: .releasing)
    }

    /// Frees the upstream before the terminal event travels on: the stack then never
    /// holds both a long chain's terminal delivery and its disposal at once.
    private func finishSubscription() {
        subscription.withLock { $0 }?.dispose()
    }

    /// Starts a subscription feeding this watcher: returns the watcher the source
    /// should feed and the subscription's disposable.
    ///
    /// Stopping the fed watcher, by a terminal event or by disposal, disposes the
    /// subscription; disposal stops the fed watcher. A watcher already fed by another
    /// subscription is wrapped, so each subscription can be stopped on its own.
    func beginSubscription() -> (fed: Watcher<Element>, subscription: Disposable) {
        let fed = claimed.exchange(true, ordering: .relaxed) ? Watcher(forwardingTo: self) : self
        fed.claimed.store(true, ordering: .relaxed)
        let subscription = Disposable { [fed] in
            fed.stop()
            StreamDiagnostics.subscriptionEnded()
        }
        StreamDiagnostics.subscriptionStarted()
        fed.subscription.withLock { $0 = subscription }
        if fed.isStopped { subscription.dispose() }
        return (fed, subscription)
    }

    private convenience init(forwardingTo downstream: Watcher<Element>) {
        self.init { event in downstream.event(event) }
    }
}

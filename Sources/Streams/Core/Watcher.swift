// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization

/// Receives a stream's events.
///
/// A watcher enforces the grammar `data* (error | end)?` for whoever feeds it:
/// after its first terminal event, or once its subscription is disposed, it
/// ignores everything. Events are delivered on the calling thread.
public final class Watcher<Element: Sendable>: Sendable, StoppableWatcher {
    // Values and terminal events take separate closures: the data path then never
    // builds an `Event`, whose generic metadata unspecialized code would look up
    // on every value.
    // A relay's values could go to `onTerminal` behind a flag, saving the allocation of its
    // wrapping closure per subscription; measured, the branch cost more per value through
    // map → filter → reduce than the allocation saved (`streams-bench --only a.create`; figures
    // in Benchmarks/README.md, "Streams ledger"), so it stays a closure.
    // `onData` may throw: a one-to-one operator that hands its downstream on (`map`, `call`, …)
    // fails its own watcher by throwing, which disposes its upstream before the error travels on,
    // without a subscription of its own (`init(handingOnTo:…)`). Checking for the throw is a
    // test of the error register per value and stage, paid for by one subscription fewer per
    // one-to-one stage (both figures in Benchmarks/README.md, "Streams ledger").
    @usableFromInline let onData: @Sendable (Element) throws -> Void
    @usableFromInline let onTerminal: @Sendable (Event<Element>) -> Void
    /// What disposing this watcher's subscription stops too: the downstream watcher of a
    /// one-to-one operator that feeds it without a subscription of its own (see `init(handingOnTo:…)`).
    private let alsoStops: (any StoppableWatcher)?
    @usableFromInline let stopped = Atomic<Bool>(false)
    /// Whether some subscription already feeds this watcher; a second one gets a forwarding watcher.
    private let claimed = Atomic<Bool>(false)
    /// Disposed when this watcher receives a terminal event, so the stream feeding it frees its resources.
    /// Set once (in `beginSubscription`) and held +1 until deinit.
    /// An atomic reference rather than a lock: on x86 both its store and its load are plain moves.
    private let subscription = Atomic<Unmanaged<Disposable>?>(nil)

    /// A watcher that hands every event to `handler`.
    ///
    /// Subscriptions that `handler` starts belong to the caller's code: they are
    /// never tied to the source that is delivering (see `PendingSubscriptions`).
    public convenience init(_ handler: @escaping @Sendable (Event<Element>) -> Void) {
        self.init(
            onData: { value in PendingSubscriptions.outsideSetup { handler(.data(value)) } },
            onTerminal: { event in PendingSubscriptions.outsideSetup { handler(event) } }
        )
    }

    /// A watcher with one closure per kind of event; any may be left out.
    public convenience init(
        data: (@Sendable (Element) -> Void)? = nil,
        error: (@Sendable (Error) -> Void)? = nil,
        end: (@Sendable () -> Void)? = nil
    ) {
        let onData: @Sendable (Element) -> Void
        if let data {
            onData = { value in PendingSubscriptions.outsideSetup { data(value) } }
        } else {
            onData = { _ in }
        }
        self.init(onData: onData, onTerminal: { event in
            switch event {
            case .data: break
            case .error(let failure): if let error { PendingSubscriptions.outsideSetup { error(failure) } }
            case .end: if let end { PendingSubscriptions.outsideSetup { end() } }
            }
        })
    }

    /// An operator's watcher: every event to `handler`, which is the library's own
    /// code, so subscriptions it starts stay tied to the subscription being set up.
    @usableFromInline
    static func relay(_ handler: @escaping @Sendable (Event<Element>) -> Void) -> Watcher<Element> {
        Watcher(onData: { handler(.data($0)) }, onTerminal: handler)
    }

    /// A watcher with a closure for values and one for the terminal event (`.error` or `.end`).
    @usableFromInline
    init(onData: @escaping @Sendable (Element) throws -> Void, onTerminal: @escaping @Sendable (Event<Element>) -> Void) {
        self.onData = onData
        self.onTerminal = onTerminal
        self.alsoStops = nil
    }

    /// The watcher of a one-to-one operator that hands its downstream on instead of starting a
    /// subscription of its own: a throw from `onData` fails this watcher (disposing the upstream,
    /// then `onTerminal` passes the error on), and disposing the upstream's subscription stops
    /// `downstream` (or whatever `stopping` stands for it) with this one, so the watcher a caller
    /// gave `watch` reads `isStopped` after disposal as with a subscription of the operator's own.
    /// Saves the operator's subscription: a `Disposable`, its setup and its disposal, one per
    /// one-to-one stage subscribed.
    @usableFromInline
    package init(
        handingOnTo downstream: any StoppableWatcher,
        onData: @escaping @Sendable (Element) throws -> Void, onTerminal: @escaping @Sendable (Event<Element>) -> Void
    ) {
        self.onData = onData
        self.onTerminal = onTerminal
        self.alsoStops = downstream
    }

    /// An operator's watcher: values go to `onData`, terminal events straight on to `downstream`.
    @inlinable
    convenience init<Downstream>(
        forwardingTerminalsTo downstream: Watcher<Downstream>, onData: @escaping @Sendable (Element) -> Void
    ) {
        self.init(onData: onData, onTerminal: { event in
            switch event {
            case .data: break
            case .error(let error): downstream.error(error)
            case .end: downstream.end()
            }
        })
    }

    /// A one-to-one operator's watcher (see `init(handingOnTo:onData:onTerminal:)`): values go to
    /// `onData`, terminal events straight on to `downstream`.
    @inlinable
    convenience init<Downstream>(handingOnTo downstream: Watcher<Downstream>, onData: @escaping @Sendable (Element) throws -> Void) {
        self.init(handingOnTo: downstream, onData: onData, onTerminal: { event in
            switch event {
            case .data: break
            case .error(let error): downstream.error(error)
            case .end: downstream.end()
            }
        })
    }

    /// Whether this watcher has stopped listening (terminal event received, or disposed).
    @inlinable
    public var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// Delivers a value, unless this watcher has stopped.
    @inlinable
    public func data(_ value: Element) {
        guard !stopped.load(ordering: .relaxed) else { return }
        do { try onData(value) } catch { failFromData(error) }
    }

    /// A value from the stage of a one-to-one operator that handed this watcher on: a throw
    /// from this watcher's `onData` (or from one further down handed on likewise) travels up
    /// as a `HandOnFailure` to the watcher a source called `data` on, which has the
    /// subscription to dispose (see `failFromData`). Always inlined: no call per value and
    /// stage (`streams-bench --only a.create` measures it; figures in the Streams ledger).
    @inlinable @inline(__always)
    package func handOnData(_ value: Element) throws {
        guard !stopped.load(ordering: .relaxed) else { return }
        do { try onData(value) } catch { try handOnFailed(error) }
    }

    /// This watcher's `onData` threw inside `handOnData`: it stops, and the failure travels up.
    @usableFromInline
    func handOnFailed(_ error: Error) throws {
        if error is HandOnFailure { throw error }
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        throw HandOnFailure { [self] in
            finishSubscription()
            onTerminal(.error(error))
        }
    }

    /// `onData` threw in `data`: this watcher fails with the error, which disposes its
    /// subscription first. A `HandOnFailure` is a watcher further down failing: this one and
    /// those between stop (running their `disposed` side effects), its subscription is
    /// disposed, and only then does the failing watcher pass its error on, as it would had it
    /// a subscription of its own.
    @usableFromInline
    func failFromData(_ error: Error) {
        guard let failure = error as? HandOnFailure else { return self.error(error) }
        stop()
        finishSubscription()
        failure.deliver()
    }

    /// Delivers the error and stops this watcher (its subscription is disposed), unless it has stopped already.
    @inlinable
    public func error(_ error: Error) {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        finishSubscription()
        onTerminal(.error(error))
    }

    /// Delivers the end and stops this watcher (its subscription is disposed), unless it has stopped already.
    @inlinable
    public func end() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        finishSubscription()
        onTerminal(.end)
    }

    /// Delivers one event: `data(_:)`, `error(_:)` or `end()`.
    public func event(_ event: Event<Element>) {
        switch event {
        case .data(let value): data(value)
        case .error(let failure): error(failure)
        case .end: end()
        }
    }

    deinit {
        subscription.load(ordering: .acquiring)?.release()
    }

    /// Stops delivery without a terminal event (the subscription was disposed).
    @usableFromInline
    package func stop() {
        guard let alsoStops else { return stopped.store(true, ordering: .releasing) }
        // Already stopped by a terminal event: that event is on its way downstream, which
        // must not be stopped before it arrives.
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        alsoStops.stop()
    }

    /// Frees the upstream before the terminal event travels on: the stack then never
    /// holds both a long chain's terminal delivery and its disposal at once.
    @usableFromInline
    func finishSubscription() {
        subscription.load(ordering: .acquiring)?.takeUnretainedValue().dispose()
    }

    /// Starts a subscription feeding this watcher: returns the watcher the source
    /// should feed and the subscription's disposable.
    ///
    /// Stopping the fed watcher, by a terminal event or by disposal, disposes the
    /// subscription; disposal stops the fed watcher. A watcher already fed by another
    /// subscription is wrapped, so each subscription can be stopped on its own.
    /// `carryingContext`: the subscription will hold subscriptions an operator starts later on
    /// its behalf (`DataStream.holding`), so it keeps the context current now for them
    /// (`ContextPropagation`); no other subscription reads one, so no other reads the task-local.
    func beginSubscription(carryingContext: Bool = false) -> (fed: Watcher<Element>, subscription: Disposable) {
        let fed = claimed.exchange(true, ordering: .relaxed) ? Watcher(forwardingTo: self) : self
        fed.claimed.store(true, ordering: .relaxed)
        let subscription = Disposable(stopping: fed, context: carryingContext ? ContextPropagation.capture() : nil)
        StreamDiagnostics.subscriptionStarted()
        // Each fed watcher begins exactly one subscription (`claimed` sees to that), so a plain store.
        fed.subscription.store(Unmanaged.passRetained(subscription), ordering: .releasing)
        if fed.isStopped { subscription.dispose() }
        return (fed, subscription)
    }

    private convenience init(forwardingTo downstream: Watcher<Element>) {
        self.init(onData: { downstream.data($0) }, onTerminal: { downstream.event($0) })
    }
}

/// A watcher handed on by a one-to-one operator failed (its `onData` threw); on its way up
/// to the watcher with the subscription, which disposes it, then calls `deliver` to pass
/// the error on from the failing watcher.
@usableFromInline
struct HandOnFailure: Error {
    let deliver: @Sendable () -> Void
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A cold stream: each `watch` runs its subscribe closure anew.
///
///     let numbers = DataStream<Int> { watcher in
///         watcher.data(1)
///         watcher.end()
///         return Disposable { /* cancel work */ }
///     }
///
/// The subscribe closure feeds the watcher it is given (on any thread, one event
/// at a time) and returns what cancels its work. The returned disposable is
/// disposed when the watcher receives a terminal event or the subscription is
/// disposed, so resources are freed either way.
public final class DataStream<Element: Sendable>: StreamType, WatcherStoppingStream {
    @usableFromInline let subscribe: @Sendable (Watcher<Element>) -> Disposable
    /// Set for a synchronous in-memory stream: operators on it compose this instead of
    /// watching it (see `SynchronousSource`), and `watch` runs it in one loop.
    @usableFromInline let synchronousSource: SynchronousSource<Element>?
    /// Set for a stream that only hands its watcher on to another stream (`deferred`,
    /// `asDataStream`): `watch` then calls `subscribe` directly, and the other stream's
    /// subscription is the only one. Otherwise the watcher would be fed by two nested
    /// subscriptions, the inner through a forwarding watcher: 2 allocations more each time.
    @usableFromInline let handsOnWatcher: Bool
    /// Set for an operator that keeps what it starts in its own subscription (`retry`'s attempts
    /// and wait, `redirect`'s source and inner streams): `watch` gives it that subscription, and
    /// what the setup starts stays its child. A disposable of the operator's own for them cost an
    /// allocation per subscription, its link and its disposal.
    @usableFromInline let holdingSubscribe: (@Sendable (Watcher<Element>, Disposable) -> Void)?
    /// Set for `deferred` of a `DataStream`: `watch` hands its watcher on to the stream this
    /// makes. Kept as it is, where a closure watching what it makes wrapped it: an allocation per
    /// `deferred` built.
    @usableFromInline let factory: (@Sendable () throws -> DataStream<Element>)?

    /// A cold stream that runs `subscribe` for each watcher: it feeds the watcher and returns
    /// what cancels its work (see the type's example).
    public convenience init(_ subscribe: @escaping @Sendable (Watcher<Element>) -> Disposable) {
        self.init(handsOnWatcher: false, subscribe)
    }

    /// A stream whose `watch` is `handOn`, which must watch a `WatcherStoppingStream` with the
    /// watcher it is given, or with one made by `Watcher(handingOnTo:…)` for it (or fail the
    /// watcher and return a subscription of its own).
    @usableFromInline
    package static func handingOn(_ handOn: @escaping @Sendable (Watcher<Element>) -> Disposable) -> DataStream<Element> {
        DataStream(handsOnWatcher: true, handOn)
    }

    @usableFromInline
    convenience init(handsOnWatcher: Bool, _ subscribe: @escaping @Sendable (Watcher<Element>) -> Disposable) {
        self.init(subscribe: subscribe, handsOnWatcher: handsOnWatcher)
    }

    /// Every kind of stream: a closure to subscribe with, or one of the other fields set.
    @usableFromInline
    init(
        subscribe: @escaping @Sendable (Watcher<Element>) -> Disposable = { _ in Disposable.nothing },
        handsOnWatcher: Bool = false,
        synchronousSource: SynchronousSource<Element>? = nil,
        holding: (@Sendable (Watcher<Element>, Disposable) -> Void)? = nil,
        factory: (@Sendable () throws -> DataStream<Element>)? = nil
    ) {
        self.subscribe = subscribe
        self.handsOnWatcher = handsOnWatcher
        self.synchronousSource = synchronousSource
        self.holdingSubscribe = holding
        self.factory = factory
    }

    /// A stream whose `watch` begins a subscription and gives `subscribe` the watcher to feed and
    /// that subscription, to hold what it starts: `link` one source or timer at a time, and the
    /// subscriptions started under it (`PendingSubscriptions.watch(under:)`) stay its children.
    @usableFromInline
    package static func holding(_ subscribe: @escaping @Sendable (_ watcher: Watcher<Element>, _ subscription: Disposable) -> Void) -> DataStream<Element> {
        DataStream(holding: subscribe)
    }

    /// What a `holding(_:)` stream's `watch` does, without the stream: begins a subscription
    /// feeding `watcher` and runs `subscribe` with the watcher to feed and that subscription. For
    /// a stage that hands its watcher on (`handingOn(_:)`) to a holding stage it would otherwise
    /// build a stream for, per subscription: that stream and its closure's context were 2
    /// allocations (an avatar's GET under its `AvatarRun`, 30 a `/users` request).
    package static func watch(_ watcher: Watcher<Element>, holding subscribe: (_ watcher: Watcher<Element>, _ subscription: Disposable) -> Void) -> Disposable {
        let (fed, subscription) = watcher.beginSubscription(carryingContext: true)
        guard !subscription.isDisposed else { return subscription }
        // Not forgetting the children: the subscription holds them for the operator.
        PendingSubscriptions.setUp(subscription) { subscribe(fed, subscription) }
        return subscription
    }

    /// A fused stream: `watch` runs `source` into the watcher; `subscribe` is not used.
    @inlinable
    convenience init(synchronous source: SynchronousSource<Element>) {
        self.init(synchronousSource: source)
    }

    @discardableResult
    public func watch(using watcher: Watcher<Element>) -> Disposable {
        if handsOnWatcher {
            // A subscription of its own would have found the watcher stopped and started nothing.
            guard !watcher.isStopped else { return Disposable.alreadyDisposed }
            guard let factory else { return subscribe(watcher) }
            do {
                return try factory().watch(using: watcher)
            } catch {
                return DataStream.just(error: error).watch(using: watcher)
            }
        }
        if let holdingSubscribe { return Self.watch(watcher, holding: holdingSubscribe) }
        let (fed, subscription) = watcher.beginSubscription()
        guard !subscription.isDisposed else { return subscription }
        if let synchronousSource {
            // The subscription is the stop flag: disposal and the watcher's terminal event both set it.
            PendingSubscriptions.setUp(subscription) { synchronousSource.deliver(to: fed, stop: subscription) }
            subscription.forgetPendingChildren()
            return subscription
        }
        let source = PendingSubscriptions.setUp(subscription) { subscribe(fed) }
        subscription.forgetPendingChildren()
        // `nothing` (or `alreadyDisposed`) has nothing to link: told by a field of its own, where
        // reading the shared static went through `swift_once` per subscription.
        if !source.isShared { subscription.link(source) }
        return subscription
    }
}

extension DataStream {
    /// One value, then end. `just(5)`: `-5|`
    @inlinable
    public static func just(_ value: Element) -> DataStream<Element> {
        DataStream(synchronous: .just(value))
    }

    /// The values in order, then end. `just(data: [1, 2, 3])`: `-1-2-3|`
    @inlinable
    public static func just(data values: [Element]) -> DataStream<Element> {
        from(values)
    }

    /// Fails at once. `just(error: e)`: `-#`
    @inlinable
    public static func just(error: Error) -> DataStream<Element> {
        DataStream(synchronous: .failure(error))
    }

    /// The stream one event describes (the inverse of `materialize` for one event;
    /// RxSwift: none, ReactiveSwift: `SignalProducer(result:)` for its two outcomes):
    /// `.data(v)` is `just(v)` (`-v|`), `.error(e)` is `just(error: e)` (`-#`), `.end` is `empty()` (`-|`).
    public static func just(event: Event<Element>) -> DataStream<Element> {
        switch event {
        case .data(let value): return just(value)
        case .error(let error): return just(error: error)
        case .end: return empty()
        }
    }

    /// Ends at once without data: `-|`
    @inlinable
    public static func empty() -> DataStream<Element> {
        DataStream(synchronous: .empty)
    }

    /// Never emits and never ends: `---`
    public static func never() -> DataStream<Element> {
        DataStream { _ in Disposable.nothing }
    }

    /// The elements of `sequence` in order, then end; stops early when the watcher stops.
    @inlinable
    public static func from<S: Sequence & Sendable>(_ sequence: S) -> DataStream<Element> where S.Element == Element {
        DataStream(synchronous: .from(sequence))
    }

    /// Calls `factory` anew for every watcher; a throw becomes an error event.
    public static func deferred(_ factory: @escaping @Sendable () throws -> DataStream<Element>) -> DataStream<Element> {
        DataStream(handsOnWatcher: true, factory: factory)
    }

    /// Calls `factory` anew for every watcher; a throw becomes an error event.
    public static func deferred<S: StreamType>(_ factory: @escaping @Sendable () throws -> S) -> DataStream<Element>
    where S.Element == Element {
        let watchMade: @Sendable (Watcher<Element>) -> Disposable = { watcher in
            do {
                return try factory().watch(using: watcher)
            } catch {
                return just(error: error).watch(using: watcher)
            }
        }
        // A stream type that does not stop its watchers gets a subscription of ours, which does.
        return S.self is any WatcherStoppingStream.Type ? DataStream.handingOn(watchMade) : DataStream(watchMade)
    }
}

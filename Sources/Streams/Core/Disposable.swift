// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Instrumentation
import StreamServiceConcurrency
import Synchronization

/// A handle on work that can be cancelled: a subscription, a timer, a request.
///
/// `dispose()` runs the cancel action once, however often and from whichever
/// threads it is called, and then releases it. Releasing a `Disposable`
/// without calling `dispose()` does not cancel anything (as in RxSwift); keep
/// it in a `DisposeBag` to tie the work to an owner's lifetime.
// @unchecked: `state` is only touched between `lock.lock()` and `lock.unlock()`.
public final class Disposable: @unchecked Sendable {
    private struct State {
        var isDisposed = false
        var action: (@Sendable () -> Void)?
        /// Subscriptions started on this thread while this one was still being set
        /// up; disposing this one before setup finishes must reach them too.
        var pendingChildren: [Disposable] = []
        /// The first pending child, kept out of the array: most setups start exactly one
        /// subscription (an operator watching its upstream), and an array for it cost an
        /// allocation per setup.
        var firstChild: Disposable?
        /// Size at which finished children are dropped, so a synchronous source starting
        /// many short subscriptions (concat, retry, redirect) does not hoard them.
        var pruneAt = 32
        /// What this subscription's setup returned, disposed after `action`.
        var source: Disposable?
        /// The watcher a subscription feeds, stopped on dispose: a field rather than an
        /// `action` closure saves a subscription one allocation.
        var fed: (any StoppableWatcher)?
        /// Disposed with this one, even by a `dispose()` after the first (see `handOver(to:)`).
        var successor: Disposable?
        /// `dispose()` ran again after the first time while successors were expected.
        var disposedAgain = false
    }

    // Inline lock and state: a subscription costs one allocation, not three.
    private let lock = SpinLock()
    @exclusivity(unchecked) private var state: State
    @usableFromInline let disposedFlag = Atomic<Bool>(false)
    /// Whether `adoptPendingChild` ever ran, so `forgetPendingChildren` can skip the lock.
    private let hasPendingChildren = Atomic<Bool>(false)
    /// Whether `handOver(to:)` may be called, so a `dispose()` after the first must look for a
    /// successor; without it, that `dispose()` stays a single atomic exchange.
    private let expectsSuccessor = Atomic<Bool>(false)
    /// `nothing` and `alreadyDisposed`, which every thread shares: never given a successor.
    @usableFromInline let isShared: Bool
    /// The `ServiceContext` current when this subscription began (`ContextPropagation`), bound
    /// again around the subscriptions an operator starts under it later, on any thread.
    let serviceContext: ServiceContext?

    /// A disposable with nothing to cancel.
    public init() {
        state = State()
        isShared = false
        serviceContext = nil
    }

    /// A container for the subscriptions an operator starts later on behalf of a subscription
    /// whose context is `context` (`ContextPropagation`).
    init(carrying context: ServiceContext?) {
        state = State()
        isShared = false
        serviceContext = context
    }

    /// A disposable that runs `action` the first time it is disposed.
    public init(_ action: @escaping @Sendable () -> Void) {
        state = State(action: action)
        isShared = false
        serviceContext = nil
    }

    /// A subscription's disposable: disposing it stops `fed` and counts the subscription ended.
    /// `context`: the one its operator's later subscriptions are started in (see `serviceContext`).
    init(stopping fed: any StoppableWatcher, context: ServiceContext?) {
        state = State(fed: fed)
        isShared = false
        serviceContext = context
    }

    /// One of the shared disposables.
    private init(shared: Void) {
        state = State()
        isShared = true
        serviceContext = nil
    }

    /// What a source with nothing to cancel returns (`just`, `from`, …): shared, so
    /// a synchronous source costs no allocation for it, and never disposed by the core.
    @usableFromInline
    static let nothing = Disposable(shared: ())

    /// What watching with a watcher that has already stopped returns: nothing was started.
    @usableFromInline
    package static let alreadyDisposed: Disposable = {
        let disposable = Disposable(shared: ())
        disposable.dispose()
        return disposable
    }()

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool { disposedFlag.load(ordering: .acquiring) }

    /// `isDisposed` as a relaxed load: the per-value stop check of a fused synchronous source.
    @inlinable
    var isDisposedRelaxed: Bool { disposedFlag.load(ordering: .relaxed) }

    /// Cancels the work. Idempotent and thread-safe.
    public func dispose() {
        guard !disposedFlag.exchange(true, ordering: .acquiringAndReleasing) else { return disposeAgain() }
        // Explicit lock calls, not a generic `withLock`: returning the closure through a
        // generic result would allocate reabstraction thunks on every dispose.
        lock.lock()
        state.isDisposed = true
        // Moved out, not copied: a copy is a retain now and a release at the reset, per field
        // and dispose.
        let action = state.action.take()
        let firstChild = state.firstChild.take()
        let children = state.pendingChildren.isEmpty ? [] : exchange(&state.pendingChildren, with: [])
        let source = state.source.take()
        let fed = state.fed.take()
        let successor = state.successor.take()
        lock.unlock()
        firstChild?.dispose()
        for child in children { child.dispose() }
        // The watcher stops before the appended actions run: a subject's late join checks it
        // after its `remove` found nothing, and must not add the watcher back.
        if let fed {
            fed.stop()
            StreamDiagnostics.subscriptionEnded()
        }
        action?()
        source?.dispose()
        successor?.dispose()
    }

    /// A `dispose()` after the first: it reaches a successor handed over since (`handOver(to:)`).
    private func disposeAgain() {
        guard expectsSuccessor.load(ordering: .relaxed) else { return }
        lock.lock()
        state.disposedAgain = true
        let successor = state.successor.take()
        lock.unlock()
        successor?.dispose()
    }

    /// Announces that `handOver(to:)` may follow: to be called before this disposable is given
    /// to anyone who might dispose it, so no `dispose()` misses the successor.
    func expectSuccessor() {
        guard !isShared else { return }
        expectsSuccessor.store(true, ordering: .relaxed)
    }

    /// Makes disposing this disposable dispose `successor` too, even if it is already disposed:
    /// `recover` hands the source's subscription, ended by the source's error, over to its
    /// fallback's, so the subscription it returned still reaches the fallback. Disposes
    /// `successor` at once if this was disposed again meanwhile.
    func handOver(to successor: Disposable) {
        expectSuccessor()
        lock.lock()
        guard !state.disposedAgain else {
            lock.unlock()
            return successor.dispose()
        }
        let previous = state.successor
        state.successor = successor
        lock.unlock()
        withExtendedLifetime(previous) {}   // the last reference goes here, outside the lock
    }

    /// Adds this disposable to `bag`, which disposes it when the bag is deinitialised.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }

    /// Adds `next` to the work this disposable cancels; runs it at once if already disposed.
    func appendAction(_ next: @escaping @Sendable () -> Void) {
        lock.lock()
        if state.isDisposed {
            lock.unlock()
            next()
            return
        }
        if let previous = state.action {
            state.action = { previous(); next() }
        } else {
            state.action = next
        }
        lock.unlock()
    }

    /// Makes disposing this also dispose `source` (what a subscription's setup returned, or
    /// `retry`'s wait, which replaces the one before it, already over); disposes `source` at
    /// once if this is already disposed. Cheaper than `appendAction`.
    @usableFromInline
    package func link(_ source: Disposable) {
        lock.lock()
        if state.isDisposed {
            lock.unlock()
            source.dispose()
            return
        }
        state.source = source
        // Adopted as the first pending child during setup: the slot is free again for the next
        // child, which would otherwise take the array (`redirect`'s inner after its source).
        if state.firstChild === source { state.firstChild = nil }
        lock.unlock()
    }

    /// Registers a subscription started while this one was being set up.
    func adoptPendingChild(_ child: Disposable) {
        lock.lock()
        if state.isDisposed {
            lock.unlock()
            child.dispose()
            return
        }
        // `PendingSubscriptions.watch(under:)` adopts what `watch` returned, which a stream that
        // sets up its own subscription registered already: adopted twice, it took the array
        // (an allocation per retry attempt).
        if state.firstChild === child || state.pendingChildren.last === child {
            lock.unlock()
            return
        }
        if state.pendingChildren.isEmpty, state.firstChild?.isDisposed ?? true {
            state.firstChild = child
            hasPendingChildren.store(true, ordering: .relaxed)
            lock.unlock()
            return
        }
        // The previous child usually finished already (a synchronous inner stream).
        while let last = state.pendingChildren.last, last.isDisposed { state.pendingChildren.removeLast() }
        if state.pendingChildren.count >= state.pruneAt {
            state.pendingChildren.removeAll { $0.isDisposed }
            state.pruneAt = max(32, state.pendingChildren.count * 2)
        }
        state.pendingChildren.append(child)
        hasPendingChildren.store(true, ordering: .relaxed)
        lock.unlock()
    }

    /// Setup finished: from now on the returned source disposable reaches every child.
    func forgetPendingChildren() {
        // Children are adopted on the setting-up thread only, the one calling this.
        guard hasPendingChildren.load(ordering: .relaxed) else { return }
        lock.lock()
        let firstChild = state.firstChild.take()
        let children = state.pendingChildren.isEmpty ? [] : exchange(&state.pendingChildren, with: [])
        lock.unlock()
        withExtendedLifetime((firstChild, children)) {}   // the last references go here, outside the lock
    }
}

/// A watcher as the disposable of the subscription feeding it sees it (see `Disposable.init(stopping:)`).
@usableFromInline
package protocol StoppableWatcher: AnyObject, Sendable {
    /// Stops delivery without a terminal event.
    func stop()
}

/// Disposes everything it holds when it is deinitialised (or when `dispose()` is called).
public final class DisposeBag: Sendable {
    private let disposables = Locked<[Disposable]>([])

    /// An empty bag.
    public init() {}

    /// Adds a disposable, to be disposed with the bag.
    public func insert(_ disposable: Disposable) {
        disposables.withLock { $0.append(disposable) }
    }

    /// Disposes everything in the bag now; the bag stays usable.
    public func dispose() {
        let taken = disposables.withLock { list -> [Disposable] in
            defer { list = [] }
            return list
        }
        for disposable in taken { disposable.dispose() }
    }

    deinit { dispose() }
}

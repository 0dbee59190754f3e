// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Instrumentation
import Synchronization

/// The subscriptions being set up on the current thread, innermost last.
///
/// A synchronous source emits everything while its `watch` call is still running,
/// before any disposable has been returned to the operators downstream. If one of
/// them stops early (`take(2)` on an endless sequence), disposing its own pending
/// subscription must still reach the source: so each subscription started during
/// another's setup is registered as that one's pending child.
@usableFromInline
package enum PendingSubscriptions {
    /// The entries are held unretained, in a buffer of their own: each is the argument of a
    /// `watch(under:)`, `run(under:)` or `setUp` call still running on this thread, which
    /// pushed it and pops it before returning, and whose caller holds it for that call. As an
    /// `[Disposable]`, a push and its pop cost a retain, a release and the array's uniqueness
    /// and capacity checks: about 145 instructions where they are 25 now, 136 times a `/users`
    /// request (the figure: Benchmarks/README.md, "Ledger").
    private final class Stack {
        // Only ever touched by its own thread.
        @exclusivity(unchecked) var items: UnsafeMutablePointer<Unmanaged<Disposable>>
        @exclusivity(unchecked) var count = 0
        @exclusivity(unchecked) var capacity: Int
        /// Entries below this index belong to sources delivering to a watcher's own code.
        @exclusivity(unchecked) var floor = 0

        init(capacity: Int = 32) {
            self.capacity = capacity
            items = .allocate(capacity: capacity)
        }

        deinit { items.deallocate() }

        /// The innermost entry, while there is one above `floor`.
        var lastAboveFloor: Unmanaged<Disposable>? { count > floor ? items[count - 1] : nil }

        func append(_ entry: Disposable) {
            if count == capacity { grow() }
            (items + count).initialize(to: .passUnretained(entry))
            count += 1
        }

        func removeLast() {
            count -= 1
        }

        private func grow() {
            let larger = UnsafeMutablePointer<Unmanaged<Disposable>>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: items, count: count)
            items.deallocate()
            items = larger
            capacity *= 2
        }
    }

    private static let stacks = ThreadLocal<Stack>()

    /// Entries on every thread's stack together: while it is zero no thread is setting
    /// up a subscription, so a watcher's code can run without touching thread-local state.
    private static let entries = Atomic<Int>(0)

    private static func push(_ stack: Stack, _ entry: Disposable) {
        entries.add(1, ordering: .relaxed)
        stack.append(entry)
    }

    private static func pop(_ stack: Stack) {
        stack.removeLast()
        entries.subtract(1, ordering: .relaxed)
    }

    /// Runs `body` with this thread's stack, lent without a retain (see `ThreadLocal.withValue`).
    @inline(__always)
    private static func withStack<Result>(_ body: (Stack) throws -> Result) rethrows -> Result {
        try stacks.withValue({ Stack() }, body)
    }

    /// Runs `watch` with `parent` as the pending subscription on this thread, so
    /// the subscriptions `watch` starts become its children and not those of
    /// whichever subscription happens to be delivering the event that led here.
    ///
    /// Operators that start subscriptions from inside an event (redirect's inner
    /// streams, recover's fallback, retry's next attempt) use it with a container
    /// they own: disposing the container then reaches those subscriptions even
    /// while they are still being set up, and nothing else does.
    /// The subscription `watch` returns is adopted too, for stream types that do not
    /// register themselves (subjects, custom `StreamType`s).
    @usableFromInline
    package static func watch(under parent: Disposable, _ watch: () -> Disposable) {
        // The context of the subscription this one is started for, not the delivering thread's.
        self.watch(under: parent, carrying: parent.serviceContext, watch)
    }

    /// As `watch(under:_:)`, in `context` (as it is, when nil) where `parent`'s would be: for a
    /// fused operator whose subscriptions under `parent` belong to a stage of its own that an
    /// operator would have subscribed in another context (`inContext`'s, kept as
    /// `ContextPropagation.carried(_:)` gives it).
    @usableFromInline
    package static func watch(under parent: Disposable, carrying context: ServiceContext?, _ watch: () -> Disposable) {
        let subscription = withStack { stack in
            push(stack, parent)
            let subscription = ContextPropagation.run(in: context, watch)
            pop(stack)
            return subscription
        }
        // Adopted even when `setUp` adopted it already (found there under the parent's lock, ~30
        // instructions): telling "the same child" by its address alone would skip a disposable
        // made after an adopted child was freed at the same address, and leave it undisposed.
        if !subscription.isDisposed { parent.adoptPendingChild(subscription) }
    }

    /// Runs `body` (a fused inner stream run inline) with `parent` as the pending
    /// subscription on this thread, like `watch(under:)` without a subscription to adopt.
    @usableFromInline
    static func run(under parent: Disposable, _ body: () -> Void) {
        withStack { stack in
            push(stack, parent)
            ContextPropagation.run(in: parent.serviceContext, body)
            pop(stack)
        }
    }

    /// Runs `setup` with `subscription` registered as pending on this thread.
    static func setUp<Result>(_ subscription: Disposable, _ setup: () -> Result) -> Result {
        withStack { stack in
            // Alive: its own `setUp` or `watch(under:)` call is still running further up this thread.
            stack.lastAboveFloor?._withUnsafeGuaranteedRef { $0.adoptPendingChild(subscription) }
            push(stack, subscription)
            defer { pop(stack) }
            return setup()
        }
    }

    /// Runs a watcher's own code (the closures a user gives `watch`): whatever it
    /// subscribes to is its business, not a child of the source delivering to it, so
    /// that source ending or being disposed leaves those subscriptions alone.
    @usableFromInline
    static func outsideSetup(_ body: () -> Void) {
        // No setup anywhere means none on this thread: nothing could adopt what `body` starts.
        guard entries.load(ordering: .relaxed) > 0 else { return body() }
        withStack { stack in
            let saved = stack.floor
            stack.floor = stack.count
            body()
            stack.floor = saved
        }
    }
}

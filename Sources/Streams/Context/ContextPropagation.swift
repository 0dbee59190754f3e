// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Instrumentation
import Synchronization

/// Carries the `ServiceContext` (swift-distributed-tracing's, a task-local) with a subscription,
/// not with a thread: a hop to another thread loses a task-local binding (the Reactor lesson),
/// so the context current when a subscription begins is kept on it (`Disposable.serviceContext`)
/// and bound again where an operator subscribes on its behalf later, from whatever thread
/// delivers the event that leads there (`PendingSubscriptions.watch(under:)`: redirect's inner
/// streams, retry's next attempt, recover's fallback); and the schedulers bind the context
/// current when work was scheduled around that work (`carrying(_:)`).
///
/// Off until `enable()`: a process that traces nothing reads no task-local per subscription,
/// only this flag (a tracer's owner enables it when it starts one).
///
/// Inside `withoutCarrying(_:)` a bound context is seen by the code that runs there and by
/// nothing begun there that runs later: no subscription keeps it, no scheduled work is bound to it.
public enum ContextPropagation {
    private static let enabled = Atomic<Bool>(false)

    /// False inside `withoutCarrying(_:)`.
    @TaskLocal private static var carries = true

    /// Whether `withoutCarrying(_:)` ever ran in this process. Until it has, `carries` is bound
    /// nowhere (no thread or task has it false), so `carriesNow` is true without the task-local
    /// read (≈ 150 instructions a capture; about 40 a `/users` request traced at 100 %, where no
    /// request is withheld). Set before the binding, on the thread that binds.
    private static let everWithheld = Atomic<Bool>(false)

    /// `carries`, read only once a scope withheld a context somewhere (see `everWithheld`).
    @inline(__always)
    private static var carriesNow: Bool { !everWithheld.load(ordering: .relaxed) || TaskLocalRead.value(of: $carries, otherwise: true) }

    /// `carriesNow` and `carries` (its slow twin, the task-local read every time), for a test
    /// to hold the two to the same answer.
    package static var carriesBothWays: (known: Bool, read: Bool) { (carriesNow, carries) }

    /// `ServiceContext.current`, read through `TaskLocalRead` (its slow twin is the property
    /// itself: the tests hold the two to the same answer, bound and not, in a task and on a thread).
    @inline(__always)
    package static var current: ServiceContext? { TaskLocalRead.value(of: ServiceContext.$current, otherwise: nil) }

    /// Contexts travel with subscriptions and scheduled work from now on (idempotent).
    public static func enable() {
        enabled.store(true, ordering: .relaxed)
    }

    /// Whether contexts travel (see `enable()`).
    public static var isEnabled: Bool { enabled.load(ordering: .relaxed) }

    /// Runs `body` with every context bound in it (the current one, and any bound inside it) kept
    /// from the subscriptions and scheduled work it begins. Code running synchronously in `body`
    /// reads `ServiceContext.current` as usual (a library's `withSpan` joins its trace); what those
    /// subscriptions and that work do later, from another turn or thread, runs in whatever context
    /// is bound where it runs, usually none. For a context whose later hops need no binding
    /// (an unsampled request that carries it on itself): reading and binding it again at every
    /// subscription and hop is what this saves.
    public static func withoutCarrying<Result>(_ body: () throws -> Result) rethrows -> Result {
        everWithheld.store(true, ordering: .relaxed)
        return try $carries.withValue(false, operation: body)
    }

    /// The context to keep for work begun now; nil when none is bound, propagation is off or
    /// inside `withoutCarrying(_:)`.
    @inline(__always)
    static func capture() -> ServiceContext? {
        guard enabled.load(ordering: .relaxed), let context = current else { return nil }
        // Read only once a context is bound: work begun under none pays no second task-local lookup.
        return carriesNow ? context : nil
    }

    /// What a subscription begun now with `context` bound keeps (`capture()` inside
    /// `ServiceContext.withValue(context)`), without binding it: `context`, or nil when
    /// propagation is off or inside `withoutCarrying(_:)`. For a fused stage that runs its
    /// upstream as `inContext(context)` would (`PendingSubscriptions.watch(under:carrying:_:)`).
    package static func carried(_ context: ServiceContext) -> ServiceContext? {
        guard enabled.load(ordering: .relaxed) else { return nil }
        return carriesNow ? context : nil
    }

    /// `carried(context)` for a subscription begun during `parent`'s setup, on its thread (an
    /// operator of `DataStream.holding` starting work under the subscription it was given): a
    /// `parent` that kept a context was begun with propagation on and outside
    /// `withoutCarrying(_:)`, and its setup is still running there, so `context` is what
    /// `carried` gives, known without its task-local read (≈ 160 instructions a traced upstream
    /// exchange, `UpstreamCallRun`). A `parent` that kept none asks `carried`.
    package static func carried(_ context: ServiceContext, settingUp parent: Disposable) -> ServiceContext? {
        guard parent.serviceContext == nil else { return context }
        return carried(context)
    }

    /// `ServiceContext.current` during `parent`'s setup, on its thread (as for
    /// `carried(_:settingUp:)`): the context `parent` kept, which is the current one, without a
    /// task-local read (≈ 190 instructions a traced upstream exchange's span start); read when it
    /// kept none.
    package static func current(settingUp parent: Disposable) -> ServiceContext? {
        parent.serviceContext ?? current
    }

    /// Runs `body` with `context` bound (as it is, when nil).
    @inline(__always)
    static func run<Result>(in context: ServiceContext?, _ body: () -> Result) -> Result {
        guard let context else { return body() }
        return ServiceContext.withValue(context, operation: body)
    }

    /// `work` as a scheduler should keep it: run in the context current now, whichever thread
    /// runs it later. `work` itself when there is no context to carry. For `Scheduler`s outside
    /// this library too (an event loop's).
    @inlinable
    public static func carrying(_ work: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        guard let context = currentForScheduling() else { return work }
        return { ServiceContext.withValue(context, operation: work) }
    }

    @usableFromInline
    static func currentForScheduling() -> ServiceContext? { capture() }
}

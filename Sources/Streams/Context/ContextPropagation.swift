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
public enum ContextPropagation {
    private static let enabled = Atomic<Bool>(false)

    /// Contexts travel with subscriptions and scheduled work from now on (idempotent).
    public static func enable() {
        enabled.store(true, ordering: .relaxed)
    }

    /// Whether contexts travel (see `enable()`).
    public static var isEnabled: Bool { enabled.load(ordering: .relaxed) }

    /// The context to keep for work begun now; nil when none is bound or propagation is off.
    @inline(__always)
    static func capture() -> ServiceContext? {
        guard enabled.load(ordering: .relaxed) else { return nil }
        return ServiceContext.current
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

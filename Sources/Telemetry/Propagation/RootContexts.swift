// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import Tracing

/// The contexts of root spans whose context is read (a request without `traceparent`: its
/// SERVER span's, bound for its route, or an unrecorded span's, carried on the request), their
/// storage reused: each such span's context is a context of its own, and made of the shared
/// `OTelTracer.rootContext` it copied that context's storage and freed it when the request ended
/// (about 850 instructions a request, where a `/health` request costs 18 k untraced). A kept
/// context whose storage no request holds any more takes the new span's reference in place; one
/// that a request still holds is copied as before (a `ServiceContext` is a value: the request's
/// stays as it was), and the copy is kept in its place.
/// The oldest kept context is taken first: the one whose request most likely ended (the newest
/// is the likeliest still held while a few requests overlap).
/// A kept context holds its last span's reference until it is taken again (at most `capacity`
/// ended spans' references kept).
// @unchecked: `slots` and `next` are only touched between `lock.lock()` and `lock.unlock()`.
final class RootContexts: @unchecked Sendable {
    private let lock = SpinLock()
    /// `capacity` kept contexts, nil until first kept (and while one is taken). Fixed slots,
    /// not an array: each change of an array checked its storage's uniqueness, and a slot
    /// emptied for a context taken held a retained placeholder (about 110 instructions a span).
    private let slots: UnsafeMutablePointer<ServiceContext?>
    /// The slot of the oldest kept context.
    @exclusivity(unchecked) private var next = 0
    /// Enough for the requests a few loops begin at once.
    static let capacity = 8

    init() {
        slots = .allocate(capacity: Self.capacity)
        slots.initialize(repeating: nil, count: Self.capacity)
    }

    deinit {
        slots.deinitialize(count: Self.capacity)
        slots.deallocate()
    }

    /// `OTelTracer.rootContext` with `SpanContextKey` holding `reference` (what
    /// `var context = OTelTracer.rootContext; context[SpanContextKey.self] = reference` makes:
    /// the slow twin, the tests hold the two equal).
    func context(holding reference: SpanContextReference) -> ServiceContext {
        var taken: ServiceContext?
        lock.lock()
        let slot = next
        next = slot + 1 == Self.capacity ? 0 : slot + 1
        // Moved out, nil left: the kept storage is then held by `context` alone when no request
        // holds it.
        swap(&taken, &slots[slot])
        lock.unlock()
        var context = taken.take() ?? OTelTracer.rootContext
        // In place when the kept storage was no request's any more; the value it replaces (an
        // ended request's reference) is released here, outside the lock.
        context[SpanContextKey.self] = reference
        // What the slot holds now, nil unless `capacity` more contexts were asked for meanwhile
        // (then one of theirs leaves), released after the lock.
        var left: ServiceContext? = context
        lock.lock()
        swap(&left, &slots[slot])
        lock.unlock()
        withExtendedLifetime(left) {}
        return context
    }
}

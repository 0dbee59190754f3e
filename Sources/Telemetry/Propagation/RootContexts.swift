// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import Tracing

/// The contexts of unrecorded root spans (a request without `traceparent` that the sampler left
/// out), their storage reused: each such span's context is a context of its own (its ids go
/// upstream and into the access log), and made of the shared `OTelTracer.rootContext` it copied
/// that context's storage and freed it when the request ended (about 850 instructions a request
/// at any sampling ratio below 1, where a `/health` request costs 18 k untraced). A kept context
/// whose storage no request holds any more takes the new span's reference in place; one that a
/// request still holds is copied as before (a `ServiceContext` is a value: the request's stays
/// as it was), and the copy is kept instead.
// @unchecked: `kept` is only touched between `lock.lock()` and `lock.unlock()`.
final class RootContexts: @unchecked Sendable {
    private let lock = SpinLock()
    @exclusivity(unchecked) private var kept: [ServiceContext] = []
    /// Enough for the requests a few loops begin at once.
    static let capacity = 8

    init() {
        kept.reserveCapacity(Self.capacity)
    }

    /// `OTelTracer.rootContext` with `SpanContextKey` holding `reference` (what
    /// `var context = OTelTracer.rootContext; context[SpanContextKey.self] = reference` makes:
    /// the slow twin, the tests hold the two equal).
    func context(holding reference: SpanContextReference) -> ServiceContext {
        lock.lock()
        var context = kept.popLast() ?? OTelTracer.rootContext
        lock.unlock()
        // In place when the kept storage was no request's any more; the value it replaces (an
        // ended request's reference) is released here, outside the lock.
        context[SpanContextKey.self] = reference
        lock.lock()
        if kept.count < Self.capacity { kept.append(context) }
        lock.unlock()
        return context
    }
}

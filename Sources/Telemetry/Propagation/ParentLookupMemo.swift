// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import Tracing

/// The span context that the context a tracer last looked a parent up in holds, kept with that
/// context: a span's parent is read once per span begun (`OTelTracer.start`), and a request's
/// upstream exchanges begin theirs in one and the same context (the avatar stage's: 30 CLIENT
/// spans a `/users` request), where each walk of its entries cost about 520 instructions
/// (`ServiceContext.spanContextReference`, the slow twin; the tests hold the two to the same
/// answers).
/// A context is known by its storage (a `ServiceContext` is one dictionary: one reference). The
/// memo keeps the context it answered for, so that storage stays alive, and a storage that two
/// hold is never changed in place (a change copies it first): the same address is the same
/// storage, holding the same entries.
// @unchecked: the three kept fields are only touched between `lock.lock()` and `lock.unlock()`.
final class ParentLookupMemo: @unchecked Sendable {
    private let lock = SpinLock()
    /// The kept context's storage address; 0 (no storage's) while none is kept.
    @exclusivity(unchecked) private var storage: UInt = 0
    /// Kept for its storage's life, never read.
    @exclusivity(unchecked) private var context: ServiceContext?
    @exclusivity(unchecked) private var reference: SpanContextReference?

    /// What `context.spanContextReference` is.
    func reference(in context: ServiceContext) -> SpanContextReference? {
        guard let storage = Self.storage(of: context) else { return context.spanContextReference }
        lock.lock()
        if storage == self.storage {
            let reference = self.reference
            lock.unlock()
            return reference
        }
        lock.unlock()
        // Only a context holding a span is kept (one without is a root span's, asked once).
        guard let found = context.spanContextReference else { return nil }
        var keptContext: ServiceContext? = context
        var keptReference: SpanContextReference? = found
        lock.lock()
        self.storage = storage
        swap(&keptContext, &self.context)
        swap(&keptReference, &self.reference)
        lock.unlock()
        // What was kept before is released here, outside the lock (a context's last reference
        // may be a span's, whose release runs its deinit).
        return found
    }

    /// The address of `context`'s storage; nil were a context laid out otherwise than as one
    /// reference (then the memo asks the context every time).
    @inline(__always)
    static func storage(of context: ServiceContext) -> UInt? {
        guard MemoryLayout<ServiceContext>.size == MemoryLayout<UInt>.size else { return nil }
        return withUnsafeBytes(of: context) { $0.load(as: UInt.self) }
    }
}

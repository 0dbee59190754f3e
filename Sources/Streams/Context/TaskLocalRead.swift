// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A task-local's value read through the runtime's own lookup, as `TaskLocal.get()` reads it, but
/// specialised for the value's type here: `get()` is generic and not inlinable, so each read
/// copied the value out through its type's value witnesses (about 190 instructions a read, of
/// which the lookup is about 70; one per subscription that keeps its context,
/// `Watcher.beginSubscription`). The lookup is the runtime entry point
/// `get()` calls (`swift_task_localValueGet`, keyed by the `TaskLocal` object, answering the
/// innermost binding's storage, or nil for none: then the default value), in a task and on a
/// plain thread alike. `TaskLocal.get()` is its slow twin (`ContextPropagationTests` holds them equal).
enum TaskLocalRead {
    @inline(__always)
    /// `local.get()`; `defaultValue` must be the one `local` was declared with (what it is where
    /// nothing binds it).
    static func value<Value: Sendable>(of local: TaskLocal<Value>, otherwise defaultValue: Value) -> Value {
        let key = UnsafeRawPointer(Unmanaged.passUnretained(local).toOpaque())
        guard let stored = _taskLocalValueGet(key) else { return defaultValue }
        return stored.assumingMemoryBound(to: Value.self).pointee
    }
}

/// The runtime's lookup (`swift_task_localValueGet(const HeapObject *key)`, what the standard
/// library's `TaskLocal.get()` calls under the same name).
@_silgen_name("swift_task_localValueGet")
private func _taskLocalValueGet(_ key: UnsafeRawPointer) -> UnsafeMutableRawPointer?

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// Values computed once per key and kept, within a budget of bytes: when a new value would
/// not fit, the memo starts over empty. For the demo upstream's answers, which are pure
/// functions of their key, so a forgotten value is only recomputed, never wrong. Starting
/// over rather than evicting the least recently used: the only way past the budget is a
/// sweep over more keys than fit (every user's repos, say), and a sweep misses in an LRU
/// just the same, so the simpler policy loses nothing.
package final class BoundedMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State {
        var values: [Key: Value] = [:]
        var bytes = 0
    }

    package let capacityBytes: Int
    private let size: @Sendable (Key, Value) -> Int
    private let state = Locked(State())

    /// `size` is what an entry counts against `capacityBytes`: its key too, when clients
    /// choose keys (a login, a `Host`), so that many small entries are bounded as well.
    package init(capacityBytes: Int, size: @escaping @Sendable (Key, Value) -> Int) {
        self.capacityBytes = capacityBytes
        self.size = size
    }

    /// The kept value for `key`, else `make()`'s, kept when it fits; a nil from `make` is
    /// not kept (answers that depend on more than the key, or on nothing worth keeping).
    /// `make` runs outside the lock: two first requests for one key may both compute it.
    package func value(for key: Key, orMake make: () -> Value?) -> Value? {
        if let kept = state.withLock({ $0.values[key] }) { return kept }
        guard let value = make() else { return nil }
        let bytes = size(key, value)
        guard bytes <= capacityBytes else { return value }
        state.withLock { state in
            if state.bytes + bytes > capacityBytes {
                state.values.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
            if state.values.updateValue(value, forKey: key) == nil { state.bytes += bytes }
        }
        return value
    }

    /// The same for a `make` that always finds a value.
    package func value(for key: Key, orMake make: () -> Value) -> Value {
        // The optional form returns `make()`'s value whether or not it is kept.
        value(for: key) { Optional(make()) }!
    }

    /// Values kept now.
    package var count: Int { state.withLock { $0.values.count } }
    /// Bytes counted against the budget now.
    package var bytes: Int { state.withLock { $0.bytes } }
}

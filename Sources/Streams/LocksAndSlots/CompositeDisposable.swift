// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// A changing set of subscriptions disposed together (the inner streams of
/// `redirect`, the sources of `merge`). Finished ones are removed by key so a
/// long-running stream does not accumulate them.
final class CompositeDisposable: Sendable {
    private struct State {
        var members: [UInt64: Disposable] = [:]
        var nextKey: UInt64 = 0
        var isDisposed = false
    }

    private let state = Locked(State())

    init() {}

    /// Reserves a key for a subscription about to start, so its end can remove it even
    /// when it ends before `insert` is called; nil once disposed.
    func reserveKey() -> UInt64? {
        state.withLock { state in
            guard !state.isDisposed else { return nil }
            defer { state.nextKey += 1 }
            return state.nextKey
        }
    }

    /// Adds `disposable` under `key`, unless `remove(key)` came first or this is disposed.
    func insert(_ disposable: Disposable, forKey key: UInt64) {
        guard !disposable.isDisposed else { return }
        let disposeNow = state.withLock { state -> Bool in
            if state.isDisposed { return true }
            state.members[key] = disposable
            return false
        }
        if disposeNow { disposable.dispose() }
    }

    /// Forgets the subscription under `key` (it finished on its own).
    func remove(_ key: UInt64) {
        _ = state.withLock { $0.members.removeValue(forKey: key) }
    }

    func dispose() {
        let members = state.withLock { state -> [Disposable] in
            state.isDisposed = true
            defer { state.members = [:] }
            return Array(state.members.values)
        }
        for member in members { member.dispose() }
    }

    var asDisposable: Disposable { Disposable { [self] in dispose() } }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// Holds the one piece of work currently in progress (an attempt, an inner
/// stream, a pending timer, a subscription that starts later): replacing it
/// disposes the previous one, and once this is disposed every newcomer is
/// disposed at once. The one serial slot of every module (`package`): retries,
/// timers, current attempts.
///
/// Timers that may be started from several threads at once carry a generation
/// number (`install(_:_:)`, `schedule(_:on:after:_:)`): the newer generation wins
/// whichever order the starts finish in. Work that may race a cancellation must
/// still check its generation, since a timer can already be running when it is
/// cancelled.
package final class SerialDisposable: Sendable {
    private struct State {
        var current: Disposable?
        var isDisposed = false
        /// The newest generation accepted by `install`.
        var generation: UInt64 = 0
    }

    private let state = Locked(State())

    package init() {}

    /// Makes `next` the current work, disposing the one it replaces.
    package func replace(with next: Disposable) {
        let (previous, disposeNext) = state.withLock { state -> (Disposable?, Bool) in
            if state.isDisposed { return (nil, true) }
            defer { state.current = next }
            return (state.current, false)
        }
        previous?.dispose()
        if disposeNext { next.dispose() }
    }

    /// Disposes the current work and everything set later.
    package func dispose() {
        let current = state.withLock { state -> Disposable? in
            state.isDisposed = true
            defer { state.current = nil }
            return state.current
        }
        current?.dispose()
    }

    package var asDisposable: Disposable { Disposable { [self] in dispose() } }

    /// Installs the work `arm` starts as generation `generation`, disposing the older
    /// work first. Generations must increase from 1; one that is not newer than the
    /// last, or that comes after `dispose()`, is ignored (`arm` does not run). If a
    /// newer generation was installed while `arm` ran, its result is disposed.
    package func install(_ generation: UInt64, _ arm: () -> Disposable) {
        let (accepted, previous) = state.withLock { state -> (Bool, Disposable?) in
            guard !state.isDisposed, generation > state.generation else { return (false, nil) }
            state.generation = generation
            defer { state.current = nil }
            return (true, state.current)
        }
        previous?.dispose()
        guard accepted else { return }
        let work = arm()
        let unwanted = state.withLock { state -> Disposable? in
            guard !state.isDisposed, state.generation == generation else { return work }
            state.current = work
            return nil
        }
        unwanted?.dispose()
    }

    /// Schedules `work` on `scheduler` after `delay` as generation `generation`, with
    /// the rules of `install`: the one pending timer of an operator.
    package func schedule(
        _ generation: UInt64,
        on scheduler: any Scheduler,
        after delay: Duration,
        _ work: @escaping @Sendable () -> Void
    ) {
        install(generation) { scheduler.schedule(after: delay, work) }
    }
}

import ConcurrencyHelpers

/// Holds the one piece of work currently in progress (an attempt, an inner
/// stream, a pending timer): replacing it disposes the previous one, and once
/// this is disposed every newcomer is disposed at once. The one serial slot of every
/// module (`package`): retries, timers, current attempts.
package final class SerialDisposable: Sendable {
    private let state = Locked<(current: Disposable?, isDisposed: Bool)>((nil, false))

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
}

import ConcurrencyHelpers
import Streams
import NetCore
import Synchronization

/// Re-subscribes to a fresh attempt after a retryable `UpstreamError`, waiting as the
/// policy says on `scheduler`. Unlike a plain `retry(n)` it tells failures apart (never
/// retries a 404), honours `Retry-After`, and reports each retry to `onRetry`.
enum Retrying {
    static func stream<Element: Sendable>(
        policy: RetryPolicy,
        scheduler: any Scheduler,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        onRetry: @escaping @Sendable (_ retry: Int, _ error: UpstreamError, _ delay: Duration) -> Void = { _, _, _ in },
        attempt: @escaping @Sendable () -> DataStream<Element>
    ) -> DataStream<Element> {
        DataStream { watcher in
            // Separate slots: a synchronous failure schedules the wait before `watch`
            // returns the attempt's subscription, which must not overwrite the timer.
            let currentAttempt = CurrentWork()
            let pendingWait = CurrentWork()
            @Sendable func run(_ retriesSoFar: Int) {
                let subscription = attempt().watch { event in
                    switch event {
                    case .data(let value):
                        watcher.data(value)
                    case .end:
                        watcher.end()
                    case .error(let error):
                        let upstreamError = error as? UpstreamError ?? .malformed(String(describing: error))
                        guard let delay = policy.delay(beforeRetry: retriesSoFar + 1, after: upstreamError, unitRandom: random()) else {
                            watcher.error(upstreamError)
                            return
                        }
                        onRetry(retriesSoFar + 1, upstreamError, delay)
                        pendingWait.replace(with: scheduler.schedule(after: delay) { run(retriesSoFar + 1) })
                    }
                }
                currentAttempt.replace(with: subscription)
            }
            run(0)
            return Disposable {
                pendingWait.cancel()
                currentAttempt.cancel()
            }
        }
    }
}

/// The one piece of work in progress (an attempt or a wait); replacing it after
/// cancellation disposes the newcomer at once.
final class CurrentWork: Sendable {
    private let state = Locked<(work: Disposable?, cancelled: Bool)>((nil, false))

    func replace(with next: Disposable) {
        let disposeNow = state.withLock { state -> Bool in
            if state.cancelled { return true }
            state.work = next
            return false
        }
        if disposeNow { next.dispose() }
    }

    func cancel() {
        let work = state.withLock { state -> Disposable? in
            state.cancelled = true
            defer { state.work = nil }
            return state.work
        }
        work?.dispose()
    }
}

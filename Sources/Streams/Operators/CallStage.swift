// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization

/// One `call` subscription: the side effects and the downstream. The watcher's closures
/// capture only this object, and it stands for the downstream when the subscription is
/// disposed (`Watcher(handingOnTo:)`), running `disposed` then: a subscription costs it and
/// the watcher, where a closure context, a relay's context, a `Disposable` with its closure
/// for `disposed` and a subscription of its own took 4 allocations more per subscription.
final class CallStage<Element: Sendable>: StoppableWatcher, Sendable {
    let data: (@Sendable (Element) throws -> Void)?
    let error: (@Sendable (Error) -> Void)?
    let end: (@Sendable () -> Void)?
    let disposed: (@Sendable () -> Void)?
    let downstream: Watcher<Element>
    /// `disposed` runs once, whether the end, an error or disposal comes first.
    private let finished = Atomic<Bool>(false)

    init(
        data: (@Sendable (Element) throws -> Void)?, error: (@Sendable (Error) -> Void)?, end: (@Sendable () -> Void)?,
        disposed: (@Sendable () -> Void)?, downstream: Watcher<Element>
    ) {
        self.data = data
        self.error = error
        self.end = end
        self.disposed = disposed
        self.downstream = downstream
    }

    /// A throw from `data` fails the operator's watcher (disposing the upstream); it reaches
    /// `finish` wrapped, so the `error` side effect, meant for the source's errors, skips it.
    func receive(_ value: Element) throws {
        if let data {
            do { try data(value) } catch { throw SideEffectFailure(error: error) }
        }
        try downstream.handOnData(value)
    }

    func finish(_ event: Event<Element>) {
        switch event {
        case .data:
            break
        case .error(let failure):
            if let own = failure as? SideEffectFailure {
                runDisposed()
                downstream.error(own.error)
                return
            }
            error?(failure)
            runDisposed()
            downstream.error(failure)
        case .end:
            end?()
            runDisposed()
            downstream.end()
        }
    }

    /// The subscription was disposed before a terminal event.
    func stop() {
        runDisposed()
        downstream.stop()
    }

    func runDisposed() {
        guard let disposed, !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
        disposed()
    }
}

/// A throw from `call`'s `data`, on its way from the operator's watcher to its `finish`.
private struct SideEffectFailure: Error {
    let error: any Error
}

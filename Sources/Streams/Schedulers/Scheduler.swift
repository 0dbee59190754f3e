// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Where and when work runs. Time-based operators take one, so tests can pass a
/// `TestScheduler` and run hours of virtual time in microseconds.
///
/// `now` is the time elapsed since the scheduler's own epoch.
public protocol Scheduler: Sendable {
    /// Time since this scheduler's epoch.
    var now: Duration { get }

    /// Runs `work` as soon as possible.
    func schedule(_ work: @escaping @Sendable () -> Void)

    /// Runs `work` once `delay` has passed; disposing the result cancels it if it has not run.
    @discardableResult
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> Disposable
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// A hot stream with a current value, replayed to every new watcher
/// (ReactiveX: BehaviorSubject; Combine: CurrentValueSubject).
///
///     ValueStreamer(0):  0--1--2--|
///     watcher (from 1):     1--2--|
///     watcher (after |):          |
///
/// Once ended or failed it replays nothing: a late watcher gets only the
/// terminal event (`value` still reads the last value fed).
/// Feed it through `data(_:)`, `error(_:)`, `end()`, `event(_:)`; read the
/// current value with `value`. Deliveries are serialized like `Streamer`'s.
public final class ValueStreamer<Element: Sendable>: StreamType, WatcherStoppingStream {
    private let core = SubjectCore<Element>()
    private let current: Locked<Element>

    /// A value streamer whose current value is `initial`.
    public init(_ initial: Element) {
        current = Locked(initial)
    }

    /// The latest value fed in (or the initial one).
    public var value: Element { current.withLock { $0 } }

    @discardableResult
    public func watch(using watcher: Watcher<Element>) -> Disposable {
        // After the end or an error only the terminal event goes out, as with RxSwift's BehaviorSubject,
        // Combine's CurrentValueSubject and ReactiveSwift's Property: the value is no longer current.
        core.add(watcher) { terminated in terminated ? [] : [current.withLock { $0 }] }
    }

    /// Makes `value` current and sends it to every current watcher; ignored after the end or an error.
    public func data(_ value: Element) {
        core.emit(.data(value)) { _ in current.withLock { $0 = value } }
    }

    /// Fails every current watcher with `error` and terminates the subject; ignored after the end
    /// or an error.
    public func error(_ error: Error) { core.emit(.error(error)) }
    /// Ends every current watcher and terminates the subject; ignored after the end or an error.
    public func end() { core.emit(.end) }

    /// Feeds `event`: `data(_:)`, `error(_:)` or `end()`.
    public func event(_ event: Event<Element>) {
        switch event {
        case .data(let value): data(value)
        case .error(let failure): error(failure)
        case .end: end()
        }
    }

    /// Watchers currently subscribed.
    public var watcherCount: Int { core.watcherCount }
}

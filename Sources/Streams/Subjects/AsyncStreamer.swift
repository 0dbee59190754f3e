// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// A hot stream that emits only its last value, and only when it ends; a watcher
/// arriving after the end gets that value and the end at once (ReactiveX:
/// `AsyncSubject`; Combine: none; the name is ReactiveX's and has nothing to do with
/// Swift concurrency).
///
///     fed:          -1-2-3-|
///     watcher A:    -------3|
///     watcher B (after the end): 3|
///     fed -1-#:     ---#          (an error passes on alone; an end without values: -|)
public final class AsyncStreamer<Element: Sendable>: StreamType, WatcherStoppingStream {
    private struct State {
        var last: Element?
        var finished = false
    }

    private let state = Locked(State())
    // Holds nothing until the end, then the last value: late watchers get it replayed.
    private let outlet = ReplayStreamer<Element>(bufferSize: 1)

    /// A subject with no value yet.
    public init() {}

    @discardableResult
    public func watch(using watcher: Watcher<Element>) -> Disposable {
        outlet.watch(using: watcher)
    }

    /// Keeps `value` as the last one, to be sent at the end; ignored after the end or an error.
    public func data(_ value: Element) {
        state.withLock { state in
            if !state.finished { state.last = value }
        }
    }

    /// Fails every watcher, present and later, with `error`, dropping the last value; ignored once terminated.
    public func error(_ error: Error) {
        guard finish() != nil else { return }
        outlet.error(error)
    }

    /// Sends the last value (if any) and the end to every watcher, present and later; ignored once terminated.
    public func end() {
        guard let last = finish() else { return }
        if let value = last { outlet.data(value) }
        outlet.end()
    }

    /// Feeds `event`: `data(_:)`, `error(_:)` or `end()`.
    public func event(_ event: Event<Element>) {
        switch event {
        case .data(let value): data(value)
        case .error(let failure): error(failure)
        case .end: end()
        }
    }

    /// Watchers currently subscribed.
    public var watcherCount: Int { outlet.watcherCount }

    /// Marks the subject finished; returns its last value (`.some(nil)` if none), or nil if already finished.
    private func finish() -> Element?? {
        state.withLock { state -> Element?? in
            guard !state.finished else { return nil }
            state.finished = true
            return .some(state.last)
        }
    }
}

extension AsyncStreamer: SubjectType {}

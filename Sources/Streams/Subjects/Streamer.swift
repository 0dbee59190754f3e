// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization

/// A hot stream you feed by hand, multicast to every current watcher
/// (ReactiveX: PublishSubject).
///
///     streamer:  --1--2--3--|
///     watcher A: --1--2--3--|
///     watcher B (from 2nd): --2--3--|
///
/// Feed it through the watcher methods `data(_:)`, `error(_:)`, `end()`,
/// `event(_:)`. Calls from many threads are serialized: each watcher receives
/// one event at a time, in the order the calls were accepted. A watcher that
/// arrives after the end receives the terminal event at once.
public final class Streamer<Element: Sendable>: StreamType, WatcherStoppingStream {
    let core = SubjectCore<Element>()

    /// A streamer with no watchers.
    public init() {}

    @discardableResult
    public func watch(using watcher: Watcher<Element>) -> Disposable {
        core.add(watcher, replaying: { _ in [] })
    }

    /// Sends `value` to every current watcher; ignored after the end or an error.
    public func data(_ value: Element) { core.emit(.data(value)) }
    /// Fails every current watcher with `error` and terminates the subject; ignored after the end
    /// or an error.
    public func error(_ error: Error) { core.emit(.error(error)) }
    /// Ends every current watcher and terminates the subject; ignored after the end or an error.
    public func end() { core.emit(.end) }
    /// Feeds `event`: `data(_:)`, `error(_:)` or `end()`.
    public func event(_ event: Event<Element>) { core.emit(event) }

    /// Watchers currently subscribed.
    public var watcherCount: Int { core.watcherCount }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A hot stream that never ends and never fails: it only accepts values
/// (RxRelay: `PublishRelay`; Combine: a `PassthroughSubject<T, Never>` nobody
/// completes). For state that lives as long as its owner — a UI binding, a feed.
///
///     relay.accept(1); relay.accept(2)
///     watcher:   -1-2-…      (no end, no error, ever)
///
/// `asInfallible()` gives its stream the type that says so.
public final class Relay<Element: Sendable>: StreamType, WatcherStoppingStream {
    private let subject = Streamer<Element>()

    /// A relay with no watchers.
    public init() {}

    /// Sends `value` to every current watcher.
    public func accept(_ value: Element) { subject.data(value) }

    @discardableResult
    public func watch(using watcher: Watcher<Element>) -> Disposable {
        subject.watch(using: watcher)
    }

    /// This relay's stream, typed as unable to fail.
    public func asInfallible() -> Infallible<Element> {
        Infallible(trusted: subject.asDataStream())
    }

    /// Watchers currently subscribed.
    public var watcherCount: Int { subject.watcherCount }
}

/// A relay with a current value, replayed to every new watcher (RxRelay:
/// `BehaviorRelay`; Combine: `CurrentValueSubject<T, Never>`).
///
///     ValueRelay(0), accept(1):  0-1-…
///     watcher (after 1):           1-…
public final class ValueRelay<Element: Sendable>: StreamType, WatcherStoppingStream {
    private let subject: ValueStreamer<Element>

    /// A value relay whose current value is `initial`.
    public init(_ initial: Element) {
        subject = ValueStreamer(initial)
    }

    /// The latest value accepted (or the initial one).
    public var value: Element { subject.value }

    /// Makes `value` current and sends it to every watcher.
    public func accept(_ value: Element) { subject.data(value) }

    @discardableResult
    public func watch(using watcher: Watcher<Element>) -> Disposable {
        subject.watch(using: watcher)
    }

    /// This relay's stream, typed as unable to fail.
    public func asInfallible() -> Infallible<Element> {
        Infallible(trusted: subject.asDataStream())
    }

    /// Watchers currently subscribed.
    public var watcherCount: Int { subject.watcherCount }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Anything that can be watched: `DataStream` and every subject.
///
/// Operators are defined in extensions of `StreamType`, so they work on all of
/// them and return a `DataStream`.
public protocol StreamType<Element>: Sendable {
    /// The type of the values.
    associatedtype Element: Sendable

    /// Starts delivering events to `watcher`; disposing the result stops it.
    @discardableResult
    func watch(using watcher: Watcher<Element>) -> Disposable
}

extension StreamType {
    /// Watches with a single closure receiving every event.
    @discardableResult
    public func watch(_ handler: @escaping @Sendable (Event<Element>) -> Void) -> Disposable {
        watch(using: Watcher(handler))
    }

    /// Watches with one closure per kind of event; any may be left out.
    @discardableResult
    public func watch(
        data: (@Sendable (Element) -> Void)? = nil,
        error: (@Sendable (Error) -> Void)? = nil,
        end: (@Sendable () -> Void)? = nil
    ) -> Disposable {
        watch(using: Watcher(data: data, error: error, end: end))
    }

    /// This stream as a `DataStream`, for APIs that want the concrete type.
    public func asDataStream() -> DataStream<Element> {
        if let stream = self as? DataStream<Element> { return stream }
        // A stream type that does not stop its watchers gets a subscription of ours, which does.
        guard stopsItsWatchers else { return DataStream { watcher in self.watch(using: watcher) } }
        return DataStream.handingOn { watcher in self.watch(using: watcher) }
    }
}

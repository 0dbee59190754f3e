// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A stream you feed by hand: every subject (`Streamer`, `ValueStreamer`,
/// `ReplayStreamer`, `AsyncStreamer`) is both a stream and, through `asWatcher()`,
/// a watcher, as the StreamLibrary thesis describes a Streamer (ReactiveX:
/// `Subject` is `Observable` and `Observer`; Combine: `Subject` with `send`).
///
///     let subject = Streamer<Int>()
///     source.watch(using: subject.asWatcher())   // the subject re-broadcasts source
public protocol SubjectType<Element>: StreamType {
    /// Sends `value` to the watchers, as the subject's kind says (see the table in "Subjects and sharing").
    func data(_ value: Element)
    /// Fails the watchers and terminates the subject.
    func error(_ error: Error)
    /// Ends the watchers and terminates the subject.
    func end()
    /// Feeds one event: `data(_:)`, `error(_:)` or `end()`.
    func event(_ event: Event<Element>)
}

extension SubjectType {
    /// A watcher that feeds this subject: watch a stream with it to multicast that
    /// stream through the subject. One per subscription (a watcher stops at its
    /// stream's terminal event); the subject stays shared.
    public func asWatcher() -> Watcher<Element> {
        Watcher.relay { [self] event in self.event(event) }
    }
}

extension Streamer: SubjectType {}
extension ValueStreamer: SubjectType {}
extension ReplayStreamer: SubjectType {}

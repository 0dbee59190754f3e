// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// A hot stream that replays its last `bufferSize` values to every new
/// watcher, then its terminal event if it has one (ReactiveX: ReplaySubject;
/// Combine: none built in; ReactiveSwift: `replayLazily(upTo:)`).
///
///     ReplayStreamer(bufferSize: 2):  1--2--3--|
///     watcher (after 3):                     2-3-|
///
/// With a `window` it replays only the values fed within that span of the
/// scheduler's clock, as well as at most `bufferSize` of them (ReactiveX:
/// `ReplaySubject.create(bufferSize:window:)`, RxJS `windowTime`):
///
///     ReplayStreamer(window: 300 ms):  1@0 2@200 3@400
///     watcher at 550:                  3            (1 and 2 are older than 300 ms)
///
/// Feed it through `data(_:)`, `error(_:)`, `end()`, `event(_:)`. Deliveries
/// are serialized like `Streamer`'s.
public final class ReplayStreamer<Element: Sendable>: StreamType, WatcherStoppingStream {
    private struct Buffer {
        var values = RingBuffer<Element>()
        /// When each buffered value was fed, on the window's clock (only with a window).
        var stamps = RingBuffer<Duration>()
    }

    private let core = SubjectCore<Element>()
    private let buffer = Locked(Buffer())
    /// The most values replayed to a new watcher.
    public let bufferSize: Int
    /// How long a value stays replayable; nil: until pushed out by `bufferSize`.
    public let window: Duration?
    private let clock: (any Scheduler)?

    /// Replays the last `bufferSize` values (none for 0 or less), however old.
    public init(bufferSize: Int) {
        self.bufferSize = max(0, bufferSize)
        window = nil
        clock = nil
    }

    /// Replays the values fed within the last `window` on `scheduler`'s clock, at most `bufferSize` of them.
    public init(bufferSize: Int = .max, window: Duration, scheduler: any Scheduler) {
        self.bufferSize = max(0, bufferSize)
        self.window = window
        clock = scheduler
    }

    @discardableResult
    public func watch(using watcher: Watcher<Element>) -> Disposable {
        core.add(watcher) { _ in
            buffer.withLock { buffer in
                expire(&buffer)
                return buffer.values.elements
            }
        }
    }

    /// Sends `value` to every current watcher and keeps it for later ones (within `bufferSize` and
    /// the window); ignored after the end or an error.
    public func data(_ value: Element) {
        core.emit(.data(value)) { _ in
            buffer.withLock { buffer in
                guard bufferSize > 0 else { return }
                if buffer.values.count == bufferSize {
                    _ = buffer.values.popFirst()
                    _ = buffer.stamps.popFirst()
                }
                buffer.values.append(value)
                if let clock { buffer.stamps.append(clock.now) }
                expire(&buffer)
            }
        }
    }

    /// Drops the values older than the window.
    private func expire(_ buffer: inout Buffer) {
        guard let window, let clock else { return }
        let oldest = clock.now - window
        while let first = buffer.stamps.first, first < oldest {
            _ = buffer.stamps.popFirst()
            _ = buffer.values.popFirst()
        }
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

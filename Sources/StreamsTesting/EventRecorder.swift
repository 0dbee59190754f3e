// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Streams

/// Collects the events a stream delivers, safely from any thread, without timestamps:
/// for synchronous streams and real threads. On virtual time use `RecordingWatcher`.
///
///     let recorder = EventRecorder<Int>()
///     DataStream.just(data: [1, 2]).watch(using: recorder.watcher)
///     XCTAssertEqual(recorder.events, [.data(1), .data(2), .end])
public final class EventRecorder<Element: Sendable>: Sendable {
    private let recorded = Locked<[Event<Element>]>([])

    /// A recorder with nothing recorded.
    public init() {}

    /// Every event so far, in the order received.
    public var events: [Event<Element>] { recorded.withLock { $0 } }
    /// The values so far.
    public var values: [Element] { events.compactMap(\.element) }
    /// The error, once the stream has failed.
    public var error: Error? { events.last?.error }
    /// Whether a terminal event (`.end` or `.error`) has arrived.
    public var isTerminated: Bool { events.last?.isTerminal ?? false }
    /// Whether the stream has ended without error.
    public var ended: Bool {
        if case .end = events.last { return true }
        return false
    }

    /// A new watcher that records into this recorder (one per subscription).
    public var watcher: Watcher<Element> {
        Watcher { [self] event in recorded.withLock { $0.append(event) } }
    }

    /// Watches `stream` with a new watcher recording here.
    @discardableResult
    public func watch<S: StreamType>(_ stream: S) -> Disposable where S.Element == Element {
        stream.watch(using: watcher)
    }
}

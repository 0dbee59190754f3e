// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Streams

/// Records the events it receives, each stamped with the virtual time of a
/// `TestScheduler` (RxTest: `TestableObserver`; ReactiveSwift's `TestScheduler`
/// tests use a plain observer).
///
///     let recorder = RecordingWatcher<Int>(scheduler)
///     stream.watch(using: recorder.watcher)
///     scheduler.advance(by: .seconds(1))
///     XCTAssertEqual(recorder.events, [.data(300, 1), .end(500)])
///     XCTAssertEqual(recorder.diagram(frame: .milliseconds(100)), "---1-|")
public final class RecordingWatcher<Element: Sendable>: Sendable {
    private let scheduler: TestScheduler
    private let recorded = Locked<[Recorded<Element>]>([])

    /// A recorder stamping events with `scheduler`'s virtual time.
    public init(_ scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// Every event so far with its virtual time, in the order received.
    public var events: [Recorded<Element>] { recorded.withLock { $0 } }
    /// The values so far.
    public var values: [Element] { events.compactMap(\.event.element) }

    /// A new watcher that records here (one per subscription).
    public var watcher: Watcher<Element> {
        Watcher { [self] event in
            let time = scheduler.now.virtualMilliseconds
            recorded.withLock { $0.append(.at(time, event)) }
        }
    }

    /// The recorded events as a marble diagram (see `Marbles`): one character per
    /// `frame`, a value as `symbol(value)`, `|` for the end, `#` for an error,
    /// `(…)` for several events in one frame.
    public func diagram(
        frame: Duration = Marbles.defaultFrame, symbol: (Element) -> String = { String(describing: $0) }
    ) -> String {
        Marbles.diagram(events, frame: frame, symbol: symbol)
    }
}

extension Duration {
    /// Whole milliseconds since the scheduler's zero, the unit `Recorded` is written in.
    var virtualMilliseconds: Int { milliseconds }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// A cold test stream: every watcher gets the events at times relative to its own
/// subscription (RxTest: `ColdObservable`, made by `createColdObservable`). Disposing
/// cancels what is still to come.
///
///     let source = scheduler.coldStream([.data(100, "a"), .end(200)])
///     // or: scheduler.coldStream("-a-|", frame: .milliseconds(100))
///     let recorder = scheduler.start { source }        // subscribed at 200
///     XCTAssertEqual(recorder.events, [.data(300, "a"), .end(400)])
///     XCTAssertEqual(source.subscriptions, [SubscriptionSpan(200, 400)])
public final class ColdStream<Element: Sendable>: StreamType {
    /// The timetable each watcher gets, relative to its subscription.
    public let recordedEvents: [Recorded<Element>]
    private let spans: SubscriptionLog
    private let stream: DataStream<Element>

    init(_ events: [Recorded<Element>], scheduler: TestScheduler) {
        recordedEvents = events
        let spans = SubscriptionLog(scheduler)
        self.spans = spans
        stream = DataStream { watcher in
            let span = spans.begin()
            let timers = events.map { recorded in
                scheduler.schedule(after: .milliseconds(recorded.time)) { watcher.event(recorded.event) }
            }
            return Disposable {
                for timer in timers { timer.dispose() }
                spans.end(span)
            }
        }
    }

    /// Every subscription so far, in the order they began.
    public var subscriptions: [SubscriptionSpan] { spans.spans }

    @discardableResult
    public func watch(using watcher: Watcher<Element>) -> Disposable {
        stream.watch(using: watcher)
    }
}

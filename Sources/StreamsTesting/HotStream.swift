// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Streams

/// A hot test stream: its events happen at their absolute virtual times, whoever is
/// watching (RxTest: `HotObservable`, made by `createHotObservable`). Each event goes to
/// the watchers subscribed at its time and to no one else: a watcher that arrives late
/// misses what came before, its terminal event included. A watcher that arrives after
/// the end therefore sees nothing until it is disposed, as in RxTest — unlike a
/// `Streamer`, which sends its terminal event to a late watcher.
///
///     let source = scheduler.hotStream([.data(150, 1), .data(300, 2), .end(500)])
///     // or: scheduler.hotStream("-a--b-|", values: ["a": 1, "b": 2])
///     let recorder = scheduler.start(subscribed: 200) { source.map { $0 * 10 } }
///     XCTAssertEqual(recorder.events, [.data(300, 20), .end(500)])
///     XCTAssertEqual(source.subscriptions, [SubscriptionSpan(200, 500)])
public final class HotStream<Element: Sendable>: StreamType {
    /// The timetable, as given.
    public let recordedEvents: [Recorded<Element>]
    private let watchers: HotWatchers<Element>
    private let spans: SubscriptionLog
    private let stream: DataStream<Element>

    init(_ events: [Recorded<Element>], scheduler: TestScheduler) {
        recordedEvents = events
        let watchers = HotWatchers<Element>()
        self.watchers = watchers
        let spans = SubscriptionLog(scheduler)
        self.spans = spans
        stream = DataStream { watcher in
            let span = spans.begin()
            let id = watchers.add(watcher)
            return Disposable {
                watchers.remove(id)
                spans.end(span)
            }
        }
        for recorded in events {
            scheduler.at(recorded.time) { watchers.send(recorded.event) }
        }
    }

    /// Every subscription so far, in the order they began.
    public var subscriptions: [SubscriptionSpan] { spans.spans }

    @discardableResult
    public func watch(using watcher: Watcher<Element>) -> Disposable {
        stream.watch(using: watcher)
    }
}

/// The watchers of a `HotStream` at this moment. No terminal event is remembered: the
/// timetable, not this list, says what happens, and it sends only to who is present.
private final class HotWatchers<Element: Sendable>: Sendable {
    private struct State {
        var entries: [(id: Int, watcher: Watcher<Element>)] = []
        var nextID = 0
    }

    private let state = Locked(State())

    func add(_ watcher: Watcher<Element>) -> Int {
        state.withLock { state in
            defer { state.nextID += 1 }
            state.entries.append((state.nextID, watcher))
            return state.nextID
        }
    }

    func remove(_ id: Int) {
        state.withLock { state in state.entries.removeAll { $0.id == id } }
    }

    /// Sends `event` to the watchers present now, outside the lock (a watcher may dispose itself).
    func send(_ event: Event<Element>) {
        for entry in state.withLock({ $0.entries }) { entry.watcher.event(event) }
    }
}

/// The subscription spans of a test stream, stamped with the scheduler's time.
final class SubscriptionLog: Sendable {
    private let scheduler: TestScheduler
    private let log = Locked<[SubscriptionSpan]>([])

    init(_ scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    var spans: [SubscriptionSpan] { log.withLock { $0 } }

    /// Records a subscription starting now; returns its index for `end`.
    func begin() -> Int {
        let now = scheduler.now.virtualMilliseconds
        return log.withLock { log in
            log.append(SubscriptionSpan(now))
            return log.count - 1
        }
    }

    func end(_ index: Int) {
        let now = scheduler.now.virtualMilliseconds
        log.withLock { log in
            if log[index].disposed == nil { log[index].disposed = now }
        }
    }
}

import StreamServiceConcurrency
import Streams

/// A hot test stream: its events happen at their absolute virtual times, whoever is
/// watching (RxTest: `HotObservable`, made by `createHotObservable`). A watcher that
/// arrives late misses what came before, as with a `Streamer` fed on a timetable.
///
///     let source = scheduler.hotStream([.data(150, 1), .data(300, 2), .end(500)])
///     // or: scheduler.hotStream("-a--b-|", values: ["a": 1, "b": 2])
///     let recorder = scheduler.start(subscribed: 200) { source.map { $0 * 10 } }
///     XCTAssertEqual(recorder.events, [.data(300, 20), .end(500)])
///     XCTAssertEqual(source.subscriptions, [SubscriptionSpan(200, 500)])
public final class HotStream<Element: Sendable>: StreamType {
    /// The timetable, as given.
    public let recordedEvents: [Recorded<Element>]
    private let subject = Streamer<Element>()
    private let spans: SubscriptionLog
    private let stream: DataStream<Element>

    init(_ events: [Recorded<Element>], scheduler: TestScheduler) {
        recordedEvents = events
        let subject = self.subject
        let spans = SubscriptionLog(scheduler)
        self.spans = spans
        stream = DataStream { watcher in
            let span = spans.begin()
            let subscription = subject.watch(using: watcher)
            return Disposable {
                subscription.dispose()
                spans.end(span)
            }
        }
        for recorded in events {
            scheduler.at(recorded.time) { subject.event(recorded.event) }
        }
    }

    /// Every subscription so far, in the order they began.
    public var subscriptions: [SubscriptionSpan] { spans.spans }

    @discardableResult
    public func watch(using watcher: Watcher<Element>) -> Disposable {
        stream.watch(using: watcher)
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

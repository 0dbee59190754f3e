import XCTest
import Streams
import StreamsTesting

/// RxJS's marble tests of `debounceTime` (spec/operators/debounceTime-spec.ts, kept in RxJS's
/// packages/rxjs/test/ported/cold/operators/debounce-time.spec.ts), diagrams unchanged: RxSwift's
/// suite has no debounce tests. One frame is `Marbles.defaultFrame` (10 virtual ms); RxJS's
/// `time('--|')` is 2 frames; the subscription is at frame 0, as in RxJS, and an unsubscription
/// marble `'-------!'` is the disposal time.
/// One marble frame.
private let frame = Marbles.defaultFrame

final class DebounceTimeTests: XCTestCase {
    private func events(_ diagram: String) -> [Recorded<String>] {
        Marbles.events(diagram)
    }

    func testShouldDebounceValuesBy2TimeUnits() {
        let scheduler = TestScheduler()
        let e1 = scheduler.hotStream("  -a--bc--d---|")
        let res = scheduler.start(created: 0, subscribed: 0) { e1.debounce(frame * 2, scheduler: scheduler) }
        XCTAssertEqual(res.events, events("---a---c--d-|"))
        XCTAssertEqual(e1.subscriptions, [SubscriptionSpan("^-----------!")])
    }

    func testShouldDelayAllElementsByTheSpecifiedTime() {
        let scheduler = TestScheduler()
        let e1 = scheduler.hotStream("  -a--------b------c----|")
        let res = scheduler.start(created: 0, subscribed: 0) { e1.debounce(frame * 5, scheduler: scheduler) }
        XCTAssertEqual(res.events, events("------a--------b------(c|)"))
        XCTAssertEqual(e1.subscriptions, [SubscriptionSpan("^---------------------!")])
    }

    func testShouldDebounceAndDelayElementByTheSpecifiedTime() {
        let scheduler = TestScheduler()
        let e1 = scheduler.hotStream("  -a--(bc)-----------d-------|")
        let res = scheduler.start(created: 0, subscribed: 0) { e1.debounce(frame * 5, scheduler: scheduler) }
        XCTAssertEqual(res.events, events("---------c--------------d--|"))
        XCTAssertEqual(e1.subscriptions, [SubscriptionSpan("^--------------------------!")])
    }

    func testShouldCompleteWhenSourceDoesNotEmit() {
        let scheduler = TestScheduler()
        let e1 = scheduler.hotStream("  -----|")
        let res = scheduler.start(created: 0, subscribed: 0) { e1.debounce(frame, scheduler: scheduler) }
        XCTAssertEqual(res.events, events("-----|"))
        XCTAssertEqual(e1.subscriptions, [SubscriptionSpan("^----!")])
    }

    func testShouldCompleteWhenSourceIsEmpty() {
        let scheduler = TestScheduler()
        let e1 = scheduler.coldStream(" |")
        let res = scheduler.start(created: 0, subscribed: 0) { e1.debounce(frame, scheduler: scheduler) }
        XCTAssertEqual(res.events, events("|"))
        XCTAssertEqual(e1.subscriptions, [SubscriptionSpan(0, 0)])  // RxJS: "(^!)"
    }

    func testShouldRaiseErrorWhenSourceDoesNotEmitAndRaisesError() {
        let scheduler = TestScheduler()
        let e1 = scheduler.hotStream("  -----#")
        let res = scheduler.start(created: 0, subscribed: 0) { e1.debounce(frame, scheduler: scheduler) }
        XCTAssertEqual(res.events, events("-----#"))
        XCTAssertEqual(e1.subscriptions, [SubscriptionSpan("^----!")])
    }

    func testShouldRaiseErrorWhenSourceThrows() {
        let scheduler = TestScheduler()
        let e1 = scheduler.coldStream(" #")
        let res = scheduler.start(created: 0, subscribed: 0) { e1.debounce(frame, scheduler: scheduler) }
        XCTAssertEqual(res.events, events("#"))
        XCTAssertEqual(e1.subscriptions, [SubscriptionSpan(0, 0)])  // RxJS: "(^!)"
    }

    func testShouldAllowUnsubscribingEarlyAndExplicitly() {
        let scheduler = TestScheduler()
        let e1 = scheduler.hotStream("  --a--bc--d----|")
        let unsub = SubscriptionSpan("-------!").disposed ?? 0
        let res = scheduler.start(created: 0, subscribed: 0, disposed: unsub) { e1.debounce(frame * 2, scheduler: scheduler) }
        XCTAssertEqual(res.events, events("----a---       "))
        XCTAssertEqual(e1.subscriptions, [SubscriptionSpan("^------!       ")])
    }

    func testShouldNotBreakUnsubscriptionChainsWhenUnsubscribedExplicitly() {
        let scheduler = TestScheduler()
        let e1 = scheduler.hotStream("  --a--bc--d----|")
        let unsub = SubscriptionSpan("-------!").disposed ?? 0
        let res = scheduler.start(created: 0, subscribed: 0, disposed: unsub) {
            e1.redirect { DataStream.just($0) }
                .debounce(frame * 2, scheduler: scheduler)
                .redirect { DataStream.just($0) }
        }
        XCTAssertEqual(res.events, events("----a---       "))
        XCTAssertEqual(e1.subscriptions, [SubscriptionSpan("^------!       ")])
    }

    func testShouldDebounceAndDoesNotCompleteWhenSourceDoesNotComplete() {
        let scheduler = TestScheduler()
        let e1 = scheduler.hotStream("  -a--(bc)-----------d-------")
        let unsub = SubscriptionSpan("^--------------------------!").disposed ?? 0
        let res = scheduler.start(created: 0, subscribed: 0, disposed: unsub) { e1.debounce(frame * 5, scheduler: scheduler) }
        XCTAssertEqual(res.events, events("---------c--------------d--"))
        XCTAssertEqual(e1.subscriptions, [SubscriptionSpan("^--------------------------!")])
    }

    func testShouldNotCompleteWhenHotSourceDoesNotComplete() {
        let scheduler = TestScheduler()
        let e1 = scheduler.hotStream("  -")
        let res = scheduler.start(created: 0, subscribed: 0, disposed: SubscriptionSpan("^!").disposed ?? 0) {
            e1.debounce(frame, scheduler: scheduler)
        }
        XCTAssertEqual(res.events, events("-"))
        XCTAssertEqual(e1.subscriptions, [SubscriptionSpan("^!")])
    }

    func testShouldNotCompleteWhenColdSourceNeverCompletes() {
        let scheduler = TestScheduler()
        let e1 = scheduler.coldStream(" -")
        let res = scheduler.start(created: 0, subscribed: 0, disposed: SubscriptionSpan("^!").disposed ?? 0) {
            e1.debounce(frame, scheduler: scheduler)
        }
        XCTAssertEqual(res.events, events("-"))
        XCTAssertEqual(e1.subscriptions, [SubscriptionSpan("^!")])
    }

    func testShouldDelayAllElementsUntilSourceRaisesError() {
        let scheduler = TestScheduler()
        let e1 = scheduler.hotStream("  -a--------b------c----#")
        let res = scheduler.start(created: 0, subscribed: 0) { e1.debounce(frame * 5, scheduler: scheduler) }
        XCTAssertEqual(res.events, events("------a--------b------#"))
        XCTAssertEqual(e1.subscriptions, [SubscriptionSpan("^---------------------!")])
    }

    func testShouldDebounceAllElementsWhileSourceEmitsWithinGivenTime() {
        let scheduler = TestScheduler()
        let e1 = scheduler.hotStream("  --a--b--c--d--e--f--g--h-|")
        let res = scheduler.start(created: 0, subscribed: 0) { e1.debounce(frame * 4, scheduler: scheduler) }
        XCTAssertEqual(res.events, events("-------------------------(h|)"))
        XCTAssertEqual(e1.subscriptions, [SubscriptionSpan("^------------------------!")])
    }

    func testShouldDebounceAllElementsWhileSourceEmitsWithinGivenTimeUntilRaisesError() {
        let scheduler = TestScheduler()
        let e1 = scheduler.hotStream("  --a--b--c--d--e--f--g--h-#")
        let res = scheduler.start(created: 0, subscribed: 0) { e1.debounce(frame * 4, scheduler: scheduler) }
        XCTAssertEqual(res.events, events("-------------------------#"))
        XCTAssertEqual(e1.subscriptions, [SubscriptionSpan("^------------------------!")])
    }
}

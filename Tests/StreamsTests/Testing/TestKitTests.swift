// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import StreamsTesting
import XCTest

final class MarbleDiagramTests: XCTestCase {
    func testDashesAreFramesAndLettersAreValues() {
        XCTAssertEqual(Marbles.events("-a-b-|"), [.data(10, "a"), .data(30, "b"), .end(50)])
    }

    func testAHashIsAnErrorAtItsFrame() {
        XCTAssertEqual(Marbles.events("--#"), [Recorded<String>.error(20, MarbleError())])
    }

    func testAGroupPutsItsEventsAtOneInstantAndTakesItsCharactersFrames() {
        XCTAssertEqual(Marbles.events("-(ab)-c|"), [.data(10, "a"), .data(10, "b"), .data(60, "c"), .end(70)])
    }

    func testValuesComeFromTheTableAndTheFrameIsChosenByTheTest() {
        let events = Marbles.events("-x-|", values: ["x": 42], frame: .milliseconds(100))
        XCTAssertEqual(events, [.data(100, 42), .end(300)])
    }

    func testSpacesTakeNoTime() {
        XCTAssertEqual(Marbles.events("a b|"), Marbles.events("ab|"))
    }

    func testADiagramOfRecordedEventsReadsBackToTheSameEvents() {
        let diagram = "-a-(bc)--#"
        XCTAssertEqual(Marbles.diagram(Marbles.events(diagram)), diagram)
    }

    func testASubscriptionSpanReadsCaretAndBang() {
        XCTAssertEqual(SubscriptionSpan("--^---!"), SubscriptionSpan(20, 60))
        XCTAssertEqual(SubscriptionSpan("^--"), SubscriptionSpan(0, nil))
    }

    func testASubscriptionSpanGroupPutsCaretAndBangAtOneFrame() {
        XCTAssertEqual(SubscriptionSpan("(^!)"), SubscriptionSpan(0, 0))
        XCTAssertEqual(SubscriptionSpan("--(^!)"), SubscriptionSpan(20, 20))
    }
}

final class TestStreamTests: XCTestCase {
    func testAHotStreamEmitsAtAbsoluteTimesSoALateWatcherMissesEarlierValues() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream([.data(150, 1), .data(300, 2), .end(500)])
        let recorder = scheduler.start(subscribed: 200) { source.map { $0 * 10 } }
        XCTAssertEqual(recorder.events, [.data(300, 20), .end(500)])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(200, 500)])
    }

    func testAColdStreamStartsItsTimetableAtEachSubscription() {
        let scheduler = TestScheduler()
        let source = scheduler.coldStream("-a-|", frame: .milliseconds(100))
        let recorder = scheduler.start { source }
        XCTAssertEqual(recorder.events, [.data(300, "a"), .end(500)])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(200, 500)])
    }

    func testStartDisposesAtTheGivenTimeAndTheSourceSeesIt() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream("--a--b--c--|", frame: .milliseconds(100))
        let recorder = scheduler.start(subscribed: 300, disposed: 700) { source }
        XCTAssertEqual(recorder.diagram(frame: .milliseconds(100)), "-----b")
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(300, 700)])
    }

    func testStartCreatesTheStreamAtCreatedTime() {
        let scheduler = TestScheduler()
        let createdAt = EventRecorder<Duration>()
        _ = scheduler.start(created: 50, subscribed: 60, disposed: 70) { () -> DataStream<Int> in
            createdAt.watcher.data(scheduler.now)
            return .never()
        }
        XCTAssertEqual(createdAt.values, [.milliseconds(50)])
        XCTAssertEqual(scheduler.now, .milliseconds(70))
    }

    func testAColdStreamRecordsEveryResubscription() {
        let scheduler = TestScheduler()
        let source = scheduler.coldStream("-#", frame: .milliseconds(100))
        let recorder = scheduler.start { source.retry(2) }
        XCTAssertEqual(recorder.events, [.error(500, MarbleError())])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(200, 300), SubscriptionSpan(300, 400), SubscriptionSpan(400, 500)])
    }

    /// The example of the StreamsTesting guide, kept true.
    func testTheGuidesSearchWaitsForTheUserToPause() {
        let scheduler = TestScheduler()
        let typed = scheduler.hotStream("-s-w---i--|", frame: .milliseconds(100))
        let recorder = scheduler.start(subscribed: 0) {
            typed.debounce(.milliseconds(250), scheduler: scheduler)
        }
        XCTAssertEqual(recorder.events, [.data(550, "w"), .data(950, "i"), .end(1_000)])
        XCTAssertEqual(typed.subscriptions, [SubscriptionSpan(0, 1_000)])
    }

    func testTheRecordingWatcherStampsVirtualTime() {
        let scheduler = TestScheduler()
        let source = Streamer<Int>()
        let (recorder, _) = scheduler.record(source)
        scheduler.at(250) { source.data(7) }
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [.data(250, 7)])
        XCTAssertEqual(recorder.values, [7])
    }
}

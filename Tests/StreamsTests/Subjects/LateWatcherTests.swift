// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// What a watcher that arrives after a subject or test stream has terminated receives: the table
/// "After termination" in the catalogue's Subjects and sharing article, one test per row and terminal.
final class LateWatcherTests: XCTestCase {
    // MARK: ValueStreamer (RxSwift BehaviorSubject, Combine CurrentValueSubject, ReactiveSwift Property)

    func testALateWatcherOfAnEndedValueStreamerGetsOnlyTheEnd() {
        let subject = ValueStreamer(1)
        subject.data(2)
        subject.end()
        let late = EventRecorder<Int>()
        subject.watch(using: late.watcher)
        XCTAssertEqual(late.events, [.end])
    }

    func testALateWatcherOfAFailedValueStreamerGetsOnlyTheError() {
        let subject = ValueStreamer(1)
        subject.data(2)
        subject.error(TestError.boom)
        let late = EventRecorder<Int>()
        subject.watch(using: late.watcher)
        XCTAssertEqual(late.events, [.error(TestError.boom)])
    }

    func testAnEndedValueStreamerStillReadsItsLastValue() {
        let subject = ValueStreamer(1)
        subject.data(2)
        subject.end()
        XCTAssertEqual(subject.value, 2)
    }

    // MARK: ReplayStreamer (RxSwift ReplaySubject): the buffer, then the terminal event

    func testALateWatcherOfAnEndedReplayStreamerGetsTheBufferThenTheEnd() {
        let subject = ReplayStreamer<Int>(bufferSize: 2)
        subject.data(1); subject.data(2); subject.data(3)
        subject.end()
        let late = EventRecorder<Int>()
        subject.watch(using: late.watcher)
        XCTAssertEqual(late.events, [.data(2), .data(3), .end])
    }

    func testALateWatcherOfAFailedReplayStreamerGetsTheBufferThenTheError() {
        let subject = ReplayStreamer<Int>(bufferSize: 2)
        subject.data(1); subject.data(2); subject.data(3)
        subject.error(TestError.boom)
        let late = EventRecorder<Int>()
        subject.watch(using: late.watcher)
        XCTAssertEqual(late.events, [.data(2), .data(3), .error(TestError.boom)])
    }

    // MARK: Streamer (RxSwift PublishSubject, Combine PassthroughSubject)

    func testALateWatcherOfAnEndedStreamerGetsOnlyTheEnd() {
        let subject = Streamer<Int>()
        subject.data(1)
        subject.end()
        let late = EventRecorder<Int>()
        subject.watch(using: late.watcher)
        XCTAssertEqual(late.events, [.end])
    }

    func testALateWatcherOfAFailedStreamerGetsOnlyTheError() {
        let subject = Streamer<Int>()
        subject.data(1)
        subject.error(TestError.boom)
        let late = EventRecorder<Int>()
        subject.watch(using: late.watcher)
        XCTAssertEqual(late.events, [.error(TestError.boom)])
    }

    // MARK: HotStream (RxTest HotObservable): nothing at all

    func testALateWatcherOfAnEndedHotStreamSeesNothingUntilDisposed() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream([.data(150, 1), .end(300)])
        let recorder = scheduler.start(subscribed: 400, disposed: 600) { source }
        XCTAssertEqual(recorder.events, [])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(400, 600)])
    }

    func testALateWatcherOfAFailedHotStreamSeesNothingUntilDisposed() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream([.data(150, 1), .error(300, TestError.boom)])
        let recorder = scheduler.start(subscribed: 400, disposed: 600) { source }
        XCTAssertEqual(recorder.events, [])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(400, 600)])
    }

    func testAHotStreamSendsItsEndToTheWatchersPresentAtThatTime() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream([.data(150, 1), .end(300)])
        let recorder = scheduler.start(subscribed: 200) { source }
        XCTAssertEqual(recorder.events, [.end(300)])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(200, 300)])
    }

    // MARK: ColdStream (RxTest ColdObservable): the whole timetable again, from the new subscription

    func testALateWatcherOfAnEndedColdStreamGetsTheWholeTimetableAgain() {
        let scheduler = TestScheduler()
        let source = scheduler.coldStream([.data(10, 1), .end(20)])
        let first = EventRecorder<Int>()
        source.watch(using: first.watcher)
        scheduler.advance(to: .milliseconds(100))
        XCTAssertEqual(first.events, [.data(1), .end])
        let late = scheduler.record(source).recorder
        scheduler.advance(to: .milliseconds(200))
        XCTAssertEqual(late.events, [.data(110, 1), .end(120)])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 20), SubscriptionSpan(100, 120)])
    }

    func testALateWatcherOfAFailedColdStreamGetsTheWholeTimetableAgain() {
        let scheduler = TestScheduler()
        let source = scheduler.coldStream([.data(10, 1), .error(20, TestError.boom)])
        let first = EventRecorder<Int>()
        source.watch(using: first.watcher)
        scheduler.advance(to: .milliseconds(100))
        XCTAssertEqual(first.events, [.data(1), .error(TestError.boom)])
        let late = scheduler.record(source).recorder
        scheduler.advance(to: .milliseconds(200))
        XCTAssertEqual(late.events, [.data(110, 1), .error(120, TestError.boom)])
    }

    // MARK: AsyncStreamer (RxSwift AsyncSubject): the last value and the end; an error alone

    func testALateWatcherOfAnEndedAsyncStreamerGetsTheLastValueAndTheEnd() {
        let subject = AsyncStreamer<Int>()
        subject.data(1); subject.data(2)
        subject.end()
        let late = EventRecorder<Int>()
        subject.watch(using: late.watcher)
        XCTAssertEqual(late.events, [.data(2), .end])
    }

    func testALateWatcherOfAFailedAsyncStreamerGetsOnlyTheError() {
        let subject = AsyncStreamer<Int>()
        subject.data(1)
        subject.error(TestError.boom)
        let late = EventRecorder<Int>()
        subject.watch(using: late.watcher)
        XCTAssertEqual(late.events, [.error(TestError.boom)])
    }
}

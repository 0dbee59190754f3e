// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// One marble frame.
private let frame = Marbles.defaultFrame

/// RxJS's marble tests of `debounceTime` (spec/operators/debounceTime-spec.ts, kept in RxJS's
/// packages/rxjs/test/ported/cold/operators/debounce-time.spec.ts), diagrams unchanged: RxSwift's
/// suite has no debounce tests. One frame is `Marbles.defaultFrame` (10 virtual ms); RxJS's
/// `time('--|')` is 2 frames; the subscription is at frame 0, as in RxJS, and an unsubscription
/// marble `'-------!'` is the disposal time.
final class DebounceTimeTests: XCTestCase {
    func testShouldDebounceValuesBy2TimeUnits() {
        check(hot: "  -a--bc--d---|", dueFrames: 2, expected: "---a---c--d-|", subscription: "^-----------!")
    }

    func testShouldDelayAllElementsByTheSpecifiedTime() {
        check(hot: "  -a--------b------c----|", dueFrames: 5, expected: "------a--------b------(c|)", subscription: "^---------------------!")
    }

    func testShouldDebounceAndDelayElementByTheSpecifiedTime() {
        check(hot: "  -a--(bc)-----------d-------|", dueFrames: 5, expected: "---------c--------------d--|", subscription: "^--------------------------!")
    }

    func testShouldCompleteWhenSourceDoesNotEmit() {
        check(hot: "  -----|", dueFrames: 1, expected: "-----|", subscription: "^----!")
    }

    func testShouldCompleteWhenSourceIsEmpty() {
        check(cold: " |", dueFrames: 1, expected: "|", subscription: "(^!)")
    }

    func testShouldRaiseErrorWhenSourceDoesNotEmitAndRaisesError() {
        check(hot: "  -----#", dueFrames: 1, expected: "-----#", subscription: "^----!")
    }

    func testShouldRaiseErrorWhenSourceThrows() {
        check(cold: " #", dueFrames: 1, expected: "#", subscription: "(^!)")
    }

    func testShouldAllowUnsubscribingEarlyAndExplicitly() {
        check(hot: "  --a--bc--d----|", dueFrames: 2, expected: "----a---       ", subscription: "^------!       ", unsubscribe: "-------!")
    }

    func testShouldNotBreakUnsubscriptionChainsWhenUnsubscribedExplicitly() {
        check(hot: "  --a--bc--d----|", dueFrames: 2, expected: "----a---       ", subscription: "^------!       ", unsubscribe: "-------!", throughRedirects: true)
    }

    func testShouldDebounceAndDoesNotCompleteWhenSourceDoesNotComplete() {
        check(hot: "  -a--(bc)-----------d-------", dueFrames: 5, expected: "---------c--------------d--", subscription: "^--------------------------!", unsubscribe: "^--------------------------!")
    }

    func testShouldNotCompleteWhenHotSourceDoesNotComplete() {
        check(hot: "  -", dueFrames: 1, expected: "-", subscription: "^!", unsubscribe: "^!")
    }

    func testShouldNotCompleteWhenColdSourceNeverCompletes() {
        check(cold: " -", dueFrames: 1, expected: "-", subscription: "^!", unsubscribe: "^!")
    }

    func testShouldDelayAllElementsUntilSourceRaisesError() {
        check(hot: "  -a--------b------c----#", dueFrames: 5, expected: "------a--------b------#", subscription: "^---------------------!")
    }

    func testShouldDebounceAllElementsWhileSourceEmitsWithinGivenTime() {
        check(hot: "  --a--b--c--d--e--f--g--h-|", dueFrames: 4, expected: "-------------------------(h|)", subscription: "^------------------------!")
    }

    func testShouldDebounceAllElementsWhileSourceEmitsWithinGivenTimeUntilRaisesError() {
        check(hot: "  --a--b--c--d--e--f--g--h-#", dueFrames: 4, expected: "-------------------------#", subscription: "^------------------------!")
    }
}

/// One RxJS case: `source` (hot or cold) debounced by `dueFrames` frames, watched at frame 0 and
/// disposed at the `!` of `unsubscribe` (if any), must give `expected` and the one subscription
/// span `subscription`.
private func check(
    hot: String? = nil, cold: String? = nil, dueFrames: Int, expected: String, subscription: String,
    unsubscribe: String? = nil, throughRedirects: Bool = false, file: StaticString = #filePath, line: UInt = #line
) {
    let scheduler = TestScheduler()
    let hotSource = hot.map { scheduler.hotStream($0) }
    let coldSource = cold.map { scheduler.coldStream($0) }
    let source: any StreamType<String> = hotSource.map { $0 as any StreamType<String> } ?? coldSource!
    let disposed = unsubscribe.flatMap { SubscriptionSpan($0).disposed } ?? 1_000
    let recorder = scheduler.start(created: 0, subscribed: 0, disposed: disposed) {
        guard throughRedirects else { return source.debounce(frame * dueFrames, scheduler: scheduler) }
        return source.redirect { DataStream.just($0) }
            .debounce(frame * dueFrames, scheduler: scheduler)
            .redirect { DataStream.just($0) }
    }
    XCTAssertEqual(recorder.events, Marbles.events(expected), file: file, line: line)
    XCTAssertEqual(hotSource?.subscriptions ?? coldSource?.subscriptions, [SubscriptionSpan(subscription)], file: file, line: line)
}

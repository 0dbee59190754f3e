// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import StreamsTesting
import XCTest

private struct Failure: Error, Equatable {}

final class SingleTests: XCTestCase {
    func testAsSinglePassesTheOneValueOnTheEnd() {
        let scheduler = TestScheduler()
        let source = scheduler.coldStream("-a--|")
        let recorder = scheduler.start(subscribed: 0) { source.asSingle() }
        XCTAssertEqual(recorder.events, [.data(40, "a"), .end(40)])
    }

    func testAsSingleFailsAtASecondValueAndDisposesTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.coldStream("-a-b--|")
        let recorder = scheduler.start(subscribed: 0) { source.asSingle() }
        XCTAssertEqual(recorder.events, [.error(30, CardinalityError.moreThanOneValue(conversion: "asSingle()"))])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 30)])
    }

    func testAsSingleFailsWhenTheStreamEndsEmpty() {
        let scheduler = TestScheduler()
        let recorder = scheduler.start(subscribed: 0) { scheduler.coldStream("--|").asSingle() }
        XCTAssertEqual(recorder.events, [.error(20, CardinalityError.noValue(conversion: "asSingle()"))])
    }

    func testTheCardinalityErrorSaysWhatWasExpected() {
        XCTAssertEqual(
            String(describing: CardinalityError.moreThanOneValue(conversion: "asSingle()")),
            "asSingle(): the stream sent a second value; at most one was allowed"
        )
    }

    func testACallbackSingleIgnoresEverythingAfterItsFirstOutcome() {
        let recorder = EventRecorder<Int>()
        recorder.watch(Single<Int> { resolve in
            resolve(.success(1))
            resolve(.success(2))
            resolve(.failure(Failure()))
            return Disposable()
        })
        XCTAssertEqual(recorder.events, [.data(1), .end])
    }

    func testTheValueIsAwaited() async throws {
        let value = try await Single.just(5).map { $0 * 2 }.value
        XCTAssertEqual(value, 10)
    }

    func testAwaitingAFailedSingleThrowsItsError() async {
        do {
            _ = try await Single<Int>.just(error: Failure()).value
            XCTFail("expected the error")
        } catch {
            XCTAssertEqual(error as? Failure, Failure())
        }
    }

    func testAnAsyncSingleRunsItsOperation() async throws {
        let single = Single<Int> { 41 + 1 }
        let value = try await single.value
        XCTAssertEqual(value, 42)
    }

    func testRedirectChainsSinglesAndZipWaitsForBoth() {
        let scheduler = TestScheduler()
        let user = scheduler.coldStream("--u|").asSingle()
        let profile = user.redirect { login in Single.just(login + "!") }
        let both = Single.zip(profile, Single.just(3))
        let recorder = scheduler.start(subscribed: 0) { both.map { "\($0.0)\($0.1)" } }
        XCTAssertEqual(recorder.events, [.data(30, "u!3"), .end(30)])
    }

    func testRecoverAndRetryKeepTheTrait() {
        let scheduler = TestScheduler()
        let flaky = scheduler.coldStream("-#").asSingle()
        let recorder = scheduler.start(subscribed: 0) { flaky.retry(1).recover("fallback") }
        XCTAssertEqual(recorder.events, [.data(20, "fallback"), .end(20)])
    }

    func testTimeoutFailsASingleThatTakesTooLong() {
        let scheduler = TestScheduler()
        let slow = scheduler.coldStream("-----a|").asSingle()
        let recorder = scheduler.start(subscribed: 0) { slow.timeout(.milliseconds(30), scheduler: scheduler) }
        XCTAssertEqual(recorder.events, [.error(30, StreamTimeoutError(timeout: .milliseconds(30)))])
    }
}

final class MaybeTests: XCTestCase {
    func testAnEmptyStreamIsAnEmptyMaybe() async throws {
        let value = try await DataStream<Int>.empty().asMaybe().value
        XCTAssertNil(value)
    }

    func testAsMaybeFailsAtASecondValue() {
        let recorder = EventRecorder<Int>()
        recorder.watch(DataStream.just(data: [1, 2]).asMaybe())
        XCTAssertEqual(recorder.events, [.error(CardinalityError.moreThanOneValue(conversion: "asMaybe()"))])
    }

    func testIfEmptyTurnsAMaybeIntoASingle() async throws {
        let empty = try await Maybe<Int>.empty().ifEmpty(7).value
        let full = try await Maybe.just(3).ifEmpty(7).value
        XCTAssertEqual([empty, full], [7, 3])
    }

    func testAnEmptyMaybeAsSingleFails() {
        let recorder = EventRecorder<Int>()
        recorder.watch(Maybe<Int>.empty().asSingle())
        XCTAssertEqual(recorder.events, [.error(CardinalityError.noValue(conversion: "asSingle()"))])
    }

    func testFilterCanEmptyAMaybe() {
        let recorder = EventRecorder<Int>()
        recorder.watch(Maybe.just(3).filter { $0 > 5 })
        XCTAssertEqual(recorder.events, [.end])
    }
}

final class CompletableTests: XCTestCase {
    func testACompletableKeepsOnlyTheOutcome() {
        let recorder = EventRecorder<Never>()
        recorder.watch(DataStream.just(data: [1, 2, 3]).asCompletable())
        XCTAssertEqual(recorder.events.count, 1)
        XCTAssertTrue(recorder.ended)
    }

    func testAndThenRunsTheNextStreamAfterTheEnd() {
        let scheduler = TestScheduler()
        let save = scheduler.coldStream("--|").asCompletable()
        let recorder = scheduler.start(subscribed: 0) { save.andThen(Single.just("saved")) }
        XCTAssertEqual(recorder.events, [.data(20, "saved"), .end(20)])
    }

    func testAndThenIsSkippedAfterAnError() {
        let recorder = EventRecorder<Int>()
        recorder.watch(Completable.just(error: Failure()).andThen(DataStream.just(1)))
        XCTAssertEqual(recorder.events, [.error(Failure())])
    }

    func testAwaitingACompletableThrowsItsError() async {
        do {
            try await Completable { finish in
                finish(Failure())
                return Disposable()
            }.value
            XCTFail("expected the error")
        } catch {
            XCTAssertEqual(error as? Failure, Failure())
        }
    }

    func testAnAsyncCompletableEndsWhenItsWorkReturns() async throws {
        try await Completable {}.value
    }

    func testASingleAsCompletableDropsTheValue() {
        let recorder = EventRecorder<Never>()
        recorder.watch(Single.just(1).asCompletable())
        XCTAssertTrue(recorder.ended)
    }
}

final class InfallibleTests: XCTestCase {
    func testAnErrorBecomesTheGivenValueAndTheEnd() {
        let scheduler = TestScheduler()
        let source = scheduler.coldStream("-a-#", values: ["a": 1])
        let recorder = scheduler.start(subscribed: 0) { source.asInfallible(onErrorJustReturn: 0) }
        XCTAssertEqual(recorder.events, [.data(10, 1), .data(30, 0), .end(30)])
    }

    func testAnErrorSwitchesToTheFallback() {
        let recorder = EventRecorder<Int>()
        recorder.watch(DataStream<Int>.just(error: Failure()).asInfallible(onErrorFallbackTo: .from([7, 8])))
        XCTAssertEqual(recorder.events, [.data(7), .data(8), .end])
    }

    func testTheRecoverHandlerSeesTheError() {
        let recorder = EventRecorder<String>()
        recorder.watch(DataStream<String>.just(error: Failure()).asInfallible { error in .just("\(error)") })
        XCTAssertEqual(recorder.values, ["Failure()"])
    }

    func testValuesAreIteratedWithoutTry() async {
        var seen: [Int] = []
        for await value in Infallible.from([1, 2, 3]).map({ $0 * 2 }).values { seen.append(value) }
        XCTAssertEqual(seen, [2, 4, 6])
    }

    func testAClosureSourceCanOnlySendValuesAndEnd() {
        let recorder = EventRecorder<Int>()
        recorder.watch(Infallible<Int> { data, end in
            data(1)
            end()
            return Disposable()
        }.scan(10, +))
        XCTAssertEqual(recorder.events, [.data(11), .end])
    }
}

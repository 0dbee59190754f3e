// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization
import XCTest
import Streams
import StreamsTesting

/// `take(for:scheduler:last:)` in virtual time, one frame = 10 ms.
final class TakeForTests: XCTestCase {
    private let scheduler = TestScheduler()

    private func recorded(_ source: String, for frames: Int, last: String? = nil) -> (events: [Recorded<String>], subscriptions: [SubscriptionSpan]) {
        let stream = scheduler.hotStream(source)
        let (recorder, _) = scheduler.record(stream.take(for: .milliseconds(10 * frames), scheduler: scheduler, last: last))
        scheduler.advance(to: .seconds(10))
        return (recorder.events, stream.subscriptions)
    }

    func testValuesPassUntilTheSpanThenTheStreamEndsAndTheSourceIsDisposed() {
        let (events, subscriptions) = recorded("-a-b---c-d-|", for: 6)
        XCTAssertEqual(events, Marbles.events("-a-b--|"))
        XCTAssertEqual(subscriptions, [SubscriptionSpan("^-----!")])
    }

    func testTheLastValueIsSentJustBeforeTheEndWhenTheSpanRunsOut() {
        let (events, _) = recorded("-a-b---c-d-|", for: 6, last: "x")
        XCTAssertEqual(events, Marbles.events("-a-b--(x|)"))
    }

    func testASourceThatEndsFirstPassesItsEndWithoutTheLastValueAndCancelsTheTimer() {
        let (events, subscriptions) = recorded("-a-|", for: 6, last: "x")
        XCTAssertEqual(events, Marbles.events("-a-|"))
        XCTAssertEqual(subscriptions, [SubscriptionSpan("^--!")])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testASourceErrorBeforeTheSpanPassesOnWithoutTheLastValue() {
        let (events, _) = recorded("-a-#", for: 6, last: "x")
        XCTAssertEqual(events, Marbles.events("-a-#"))
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testValuesDoNotMoveTheDeadlineAsTimeoutsDo() {
        let (events, _) = recorded("-a-a-a-a-a-a-a-a-|", for: 6, last: "x")
        XCTAssertEqual(events, Marbles.events("-a-a-a(x|)"))
    }

    func testDisposingBeforeTheSpanCancelsTheTimerAndReleasesTheSubscription() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let source = Streamer<Int>()
        let (recorder, subscription) = scheduler.record(source.take(for: .seconds(5), scheduler: scheduler, last: -1))
        source.data(1)
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertEqual(source.watcherCount, 0)
        scheduler.advance(by: .seconds(10))
        XCTAssertEqual(recorder.events, [.data(0, 1)])
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
    }

    func testAWatcherFeedingTheSourceFromInsideTheLastValueGetsNothingAfterTheEnd() {
        let source = Streamer<Int>()
        let seen = Mutex<[Event<Int>]>([])
        let subscription = source.take(for: .seconds(1), scheduler: scheduler, last: -1).watch { event in
            seen.withLock { $0.append(event) }
            if case .data(-1) = event { source.data(99) }
        }
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(seen.withLock { $0 }, [.data(-1), .end])
        subscription.dispose()
    }

    /// Seeded random sources (values, an end or an error, or neither), spans and disposal times:
    /// the operator and its twin record the same events and the same subscription spans.
    func testAgreesWithTakeUntilATimerThenConcatOverRandomSources() {
        var random = SeededRandom(seed: 0x7A4E_F0)
        for round in 0..<300 {
            var diagram = ""
            for _ in 0..<Int.random(in: 0...12, using: &random) { diagram += ["-", "-", "a", "b", "(ab)"].randomElement(using: &random)! }
            diagram += ["|", "#", "", "-"].randomElement(using: &random)!
            let span = Duration.milliseconds(10 * Int.random(in: 0...14, using: &random))
            let last: String? = Bool.random(using: &random) ? "x" : nil
            let disposeAt = Int.random(in: 1...20, using: &random) * 10
            var results: [([Recorded<String>], [SubscriptionSpan])] = []
            for useTwin in [false, true] {
                let scheduler = TestScheduler()
                let source = scheduler.hotStream(diagram)
                let stream = useTwin
                    ? TwinBuilder(scheduler: scheduler).twin(source.asDataStream(), for: span, last: last)
                    : source.take(for: span, scheduler: scheduler, last: last)
                let (recorder, subscription) = scheduler.record(stream)
                scheduler.at(disposeAt) { subscription.dispose() }
                scheduler.advance(to: .seconds(1))
                results.append((recorder.events, source.subscriptions))
            }
            XCTAssertEqual(results[0].0, results[1].0, "round \(round): \(diagram) span \(span) last \(last ?? "nil") disposed at \(disposeAt)")
            XCTAssertEqual(results[0].1, results[1].1, "round \(round): \(diagram) subscriptions")
        }
    }
}

/// The slow twin: what `take(for:last:)` replaced in the server's token expiry, a `takeUntil`
/// of a timer followed by the last value only when the timer fired.
private struct TwinBuilder {
    let scheduler: TestScheduler

    func twin(_ source: DataStream<String>, for span: Duration, last: String?) -> DataStream<String> {
        let scheduler = self.scheduler
        return DataStream.deferred {
            let fired = Mutex(false)
            let expiry = DataStream<Int>.timer(span, scheduler: scheduler).call(data: { _ in fired.withLock { $0 = true } })
            return DataStream.concat(
                source.takeUntil(expiry),
                DataStream.deferred { fired.withLock { $0 } && last != nil ? DataStream.just(last!) : DataStream.empty() })
        }
    }
}


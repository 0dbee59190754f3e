// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// Auto-hiding drawer: hide the drawer when the speed rises above 2.5 m/s while
/// auto-rotation is on, or when auto-rotation turns on above that speed. The
/// delayed variant hides only once both conditions have held for 5 s.
final class AutoHidingDrawerTests: XCTestCase {
    private enum Drawer: Equatable, Sendable { case hide }

    private static let speedLimit = 2.5

    private struct Car {
        let speed: any StreamType<Double>
        let autoRotation: any StreamType<Bool>

        /// The moments both conditions start to hold.
        var becameEligible: DataStream<Void> {
            let speedRoseAbove = speed
                .map { $0 > speedLimit }
                .uniqueTransition()
                .filter { $0 }
                .withLatestFrom(autoRotation) { _, rotationOn in rotationOn }
            let rotationTurnedOn = autoRotation
                .uniqueTransition()
                .filter { $0 }
                .withLatestFrom(speed) { _, speed in speed > speedLimit }
            return DataStream.merge(speedRoseAbove, rotationTurnedOn).filter { $0 }.map { _ in () }
        }

        /// The moments either condition stops holding.
        var stoppedBeingEligible: DataStream<Void> {
            DataStream.merge(
                speed.filter { $0 <= speedLimit }.map { _ in () },
                autoRotation.filter { !$0 }.map { _ in () }
            )
        }

        var hideAtOnce: DataStream<Drawer> {
            becameEligible.map { .hide }
        }

        func hideAfterFiveSeconds(scheduler: TestScheduler) -> DataStream<Drawer> {
            becameEligible.redirectLatest { _ in
                DataStream.timer(.seconds(5), scheduler: scheduler)
                    .takeUntil(stoppedBeingEligible)
                    .map { _ in Drawer.hide }
            }
        }
    }

    private func car(_ scheduler: TestScheduler, speed: [Recorded<Double>], autoRotation: [Recorded<Bool>]) -> Car {
        Car(speed: scheduler.hotStream(speed), autoRotation: scheduler.hotStream(autoRotation))
    }

    // MARK: hiding at once

    func testHidesWhenSpeedRisesAboveTheLimitWhileAutoRotationIsOn() {
        let scheduler = TestScheduler()
        let car = car(scheduler, speed: [.at(0, .data(1)), .at(1_000, .data(3))], autoRotation: [.at(0, .data(true))])
        let (recorder, _) = scheduler.record(car.hideAtOnce)
        scheduler.advance(to: .seconds(10))
        XCTAssertEqual(recorder.events, [.at(1_000, .data(.hide))])
    }

    func testHidesWhenAutoRotationTurnsOnAboveTheLimit() {
        let scheduler = TestScheduler()
        let car = car(
            scheduler,
            speed: [.at(0, .data(3))],
            autoRotation: [.at(0, .data(false)), .at(2_000, .data(true))]
        )
        let (recorder, _) = scheduler.record(car.hideAtOnce)
        scheduler.advance(to: .seconds(10))
        XCTAssertEqual(recorder.events, [.at(2_000, .data(.hide))])
    }

    func testStaysWhileAutoRotationIsOffOrTheSpeedIsLow() {
        let scheduler = TestScheduler()
        let car = car(
            scheduler,
            speed: [.at(0, .data(1)), .at(1_000, .data(3)), .at(2_000, .data(2)), .at(4_000, .data(2.5))],
            autoRotation: [.at(0, .data(false)), .at(3_000, .data(true))]
        )
        let (recorder, _) = scheduler.record(car.hideAtOnce)
        scheduler.advance(to: .seconds(10))
        XCTAssertEqual(recorder.events, [])
    }

    func testSpeedBobbingAboveTheLimitHidesOnlyOnEachRise() {
        let scheduler = TestScheduler()
        let car = car(
            scheduler,
            speed: [.at(0, .data(3)), .at(100, .data(3.5)), .at(200, .data(1)), .at(300, .data(4))],
            autoRotation: [.at(0, .data(true))]
        )
        let (recorder, _) = scheduler.record(car.hideAtOnce)
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [.at(0, .data(.hide)), .at(300, .data(.hide))])
    }

    // MARK: hiding after 5 s, the three timelines

    private func delayedTimeline(speed: [Recorded<Double>], autoRotation: [Recorded<Bool>]) -> [Recorded<Drawer>] {
        let scheduler = TestScheduler()
        let car = car(scheduler, speed: speed, autoRotation: autoRotation)
        let (recorder, _) = scheduler.record(car.hideAfterFiveSeconds(scheduler: scheduler))
        scheduler.advance(to: .seconds(20))
        return recorder.events
    }

    func testDelayedHidesExactlyFiveSecondsAfterBothConditionsHold() {
        let marbles = delayedTimeline(
            speed: [.at(0, .data(1)), .at(1_000, .data(3)), .at(3_000, .data(4))],
            autoRotation: [.at(0, .data(true))]
        )
        XCTAssertEqual(marbles, [.at(6_000, .data(.hide))])
    }

    func testDelayedDoesNotHideWhenTheSpeedDropsAfterFourSeconds() {
        let marbles = delayedTimeline(
            speed: [.at(0, .data(1)), .at(1_000, .data(3)), .at(5_000, .data(2))],
            autoRotation: [.at(0, .data(true))]
        )
        XCTAssertEqual(marbles, [])
    }

    func testDelayedDoesNotHideWhenAutoRotationTurnsOffAfterFourSeconds() {
        let marbles = delayedTimeline(
            speed: [.at(0, .data(1)), .at(1_000, .data(3))],
            autoRotation: [.at(0, .data(true)), .at(5_000, .data(false))]
        )
        XCTAssertEqual(marbles, [])
    }

    func testDelayedStartsAFreshFiveSecondsWhenTheConditionsHoldAgain() {
        let marbles = delayedTimeline(
            speed: [.at(0, .data(1)), .at(1_000, .data(3)), .at(5_000, .data(2)), .at(7_000, .data(3))],
            autoRotation: [.at(0, .data(true))]
        )
        XCTAssertEqual(marbles, [.at(12_000, .data(.hide))])
    }
}

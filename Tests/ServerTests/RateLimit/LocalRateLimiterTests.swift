// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import XCTest
@testable import Server
import StreamServiceConcurrency

/// `LocalRateLimiter`: GCRA per key, on a clock the test moves.
final class LocalRateLimiterTests: XCTestCase {
    private final class Clock: @unchecked Sendable {
        // Guarded by its lock: the limiter reads it from its own calls.
        let now = Locked<Double>(1_000)
        func advance(_ seconds: Double) { now.withLock { $0 += seconds } }
    }

    private func limiter(_ clock: Clock, count: Int = 3, burst: Int? = nil) -> LocalRateLimiter<AddressDebts> {
        LocalRateLimiter(policy: RatePolicy(name: "requests", count: count, period: .seconds(1), burst: burst)) { clock.now.withLock { $0 } }
    }

    func testABurstIsTakenThenRefusedUntilTimePaysItDown() {
        let clock = Clock(), limiter = limiter(clock), client = IPAddress("192.0.2.1")!
        XCTAssertEqual((0..<4).map { _ in limiter.takeUnlessRefused(client) == nil }, [true, true, true, false])
        clock.advance(1.0 / 3)
        XCTAssertNil(limiter.takeUnlessRefused(client))
        XCTAssertNotNil(limiter.takeUnlessRefused(client))
        XCTAssertNil(limiter.takeUnlessRefused(IPAddress("192.0.2.2")!), "another client has its own budget")
    }

    func testTakeUnlessRefusedAgreesWithTake() {
        let clocks = (Clock(), Clock())
        let full = limiter(clocks.0, count: 5, burst: 2), quick = limiter(clocks.1, count: 5, burst: 2)
        let clients = ["192.0.2.1", "2001:db8::1", "192.0.2.1", "10.0.0.1"].map { IPAddress($0)! }
        var refusals = 0
        for step in 0..<200 {
            let client = clients[step % clients.count]
            let decision = full.take(client)
            let refused = quick.takeUnlessRefused(client)
            XCTAssertEqual(decision.allowed, refused == nil, "step \(step)")
            if let refused {
                XCTAssertEqual(refused, decision, "step \(step)")
                refusals += 1
            }
            let pause = Double(step % 7) * 0.03
            clocks.0.advance(pause)
            clocks.1.advance(pause)
        }
        XCTAssertGreaterThan(refusals, 10, "the sequence must reach refusals to compare them")
        XCTAssertLessThan(refusals, 190, "and allowances")
    }

    private func budget(_ clock: Clock, count: Int) -> LocalRateLimiter<BoundedDebts<String>> {
        LocalRateLimiter(policy: RatePolicy(name: "upstream", count: count, period: .seconds(60))) { clock.now.withLock { $0 } }
    }

    /// A reservation takes its whole cost at once, so the next one sees it; it may start only
    /// when its cost fits, and then says what is left after it.
    func testAReservationTakesItsCostWhenItFitsAndOnlyThen() {
        let clock = Clock(), budget = budget(clock, count: 5)
        let first = budget.reserve("c", cost: 2)
        XCTAssertTrue(first.decision.allowed)
        XCTAssertEqual(first.decision.remaining, 3, "after its own 2")
        XCTAssertTrue(budget.reserve("c", cost: 2).decision.allowed)
        let refused = budget.reserve("c", cost: 2)
        XCTAssertFalse(refused.decision.allowed, "4 of 5 taken: 2 more do not fit")
        XCTAssertEqual(refused.decision.retryAfterSeconds, 12, "until one more unit (12 s) is paid back")
        XCTAssertTrue(budget.reserve("c", cost: 1).decision.allowed, "1 still fits")
    }

    /// A cost beyond the whole burst starts only on a whole budget (else it could never start).
    func testACostAboveTheBurstNeedsAWholeBudget() {
        let clock = Clock(), budget = budget(clock, count: 5)
        XCTAssertTrue(budget.reserve("c", cost: 11).decision.allowed, "a whole budget")
        let refused = budget.reserve("c", cost: 11)
        XCTAssertFalse(refused.decision.allowed)
        XCTAssertEqual(refused.decision.retryAfterSeconds, 132, "until the 11 units (132 s) are paid back")
        clock.advance(132)
        XCTAssertTrue(budget.reserve("c", cost: 11).decision.allowed)
    }

    /// Units given back (a reservation that spent less) make room again, but never beyond a whole budget.
    func testUnitsGivenBackMakeRoomButNoMoreThanAWholeBudget() {
        let clock = Clock(), budget = budget(clock, count: 5)
        XCTAssertTrue(budget.reserve("c", cost: 5).decision.allowed)
        XCTAssertFalse(budget.reserve("c", cost: 1).decision.allowed)
        budget.charge("c", cost: -2)
        XCTAssertTrue(budget.reserve("c", cost: 2).decision.allowed)
        budget.charge("c", cost: -100)
        XCTAssertEqual(budget.reserve("c", cost: 1).decision.remaining, 4, "a whole budget of 5, less the 1 just taken")
    }
}

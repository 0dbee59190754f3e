// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import StreamServiceConcurrency
import XCTest
@testable import Server

/// The per-client tables at their bound: they make room by forgetting the least indebted, never a
/// client over its limit, and never by starting over.
final class BoundedDebtsTests: XCTestCase {
    private let policy = RatePolicy(name: "requests", count: 2, period: .seconds(3600))

    private func limiter<Table: DebtTable & Sendable>(_: Table.Type, maximumClients: Int, now: Locked<Double>) -> LocalRateLimiter<Table> {
        LocalRateLimiter<Table>(policy: policy, clock: { now.withLock { $0 } }, maximumClients: maximumClients)
    }

    private func address(_ index: Int) -> IPAddress {
        IPAddress(high: 0, low: IPAddress.v4Prefix | 0x0A00_0000 | UInt64(index))
    }

    /// A client at 429 stays at 429 however many others pass: before, the table was cleared above
    /// its bound and the client had a whole budget again.
    func testALimitedClientStaysLimitedAfterManyOtherAddresses() {
        for seed: UInt64 in [0, 7, 0xFEED] {
            let now = Locked<Double>(1_000)
            let limiter = LocalRateLimiter<BoundedDebts<IPAddress>>(policy: policy, clock: { now.withLock { $0 } }, maximumClients: 64)
            let limited = IPAddress("203.0.113.9")!
            XCTAssertNil(limiter.takeUnlessRefused(limited))
            XCTAssertNil(limiter.takeUnlessRefused(limited))
            XCTAssertNotNil(limiter.takeUnlessRefused(limited), "its burst of 2 is spent")
            for index in 0..<5_000 { XCTAssertNil(limiter.takeUnlessRefused(address(index)), "a newcomer, with room made for it (seed \(seed))") }
            XCTAssertNotNil(limiter.takeUnlessRefused(limited), "still limited after 5,000 others through a table of 64 (seed \(seed))")
        }
    }

    func testTheBoundStaysWhereSomeoneMayBeForgotten() {
        var table = BoundedDebts<IPAddress>(maximumCount: 5, seed: 11)
        let horizon = DebtHorizon(now: 100, admissible: 150)
        for index in 0..<200 { _ = table.update(address(index), horizon: horizon) { $0 = 120 } }
        XCTAssertEqual(table.count, 5, "each newcomer took the place of one within its limit")
    }

    func testTheTwinKeepsALimitedClientToo() {
        let now = Locked<Double>(1_000)
        let limiter = limiter(DictionaryDebts<IPAddress>.self, maximumClients: 8, now: now)
        let limited = IPAddress("203.0.113.9")!
        for _ in 0..<2 { XCTAssertNil(limiter.takeUnlessRefused(limited)) }
        for index in 0..<100 { XCTAssertNil(limiter.takeUnlessRefused(address(index))) }
        XCTAssertNotNil(limiter.takeUnlessRefused(limited))
    }

    /// The least indebted go first: paid-off clients before any in debt, and of those in debt the
    /// one owing least (within the window looked at, here the whole table).
    func testRoomIsMadeByForgettingThePaidOffThenTheLeastIndebted() {
        var table = BoundedDebts<IPAddress>(maximumCount: 4, seed: 3)
        let horizon = DebtHorizon(now: 100, admissible: 150)
        for (index, debt) in [130.0, 110, 140, 120].enumerated() { _ = table.update(address(index), horizon: horizon) { $0 = debt } }
        _ = table.update(address(10), horizon: horizon) { $0 = 145 }
        XCTAssertEqual(table.count, 4)
        XCTAssertNil(table.debt(of: address(1)), "the one owing least (110) made room")
        XCTAssertEqual([0, 2, 3, 10].map { table.debt(of: address($0)) }, [130, 140, 120, 145])
        let later = DebtHorizon(now: 125, admissible: 175)
        _ = table.update(address(11), horizon: later) { $0 = 126 }
        XCTAssertNil(table.debt(of: address(3)), "paid off at 125 (owed until 120): forgotten first")
    }

    /// A table full of clients over their limits holds newcomers in its array's spare room (half
    /// its slots: 4 for a bound of 3), then refuses them rather than forget one of the others.
    func testATableFullOfClientsOverTheirLimitsRefusesANewcomerOnceItsSpareRoomIsTaken() {
        var table = BoundedDebts<IPAddress>(maximumCount: 3, seed: 5)
        XCTAssertEqual(BoundedDebts<IPAddress>.ceiling(for: 3), 4)
        let horizon = DebtHorizon(now: 100, admissible: 150)
        for index in 0..<4 { XCTAssertNotNil(table.update(address(index), horizon: horizon) { $0 = 160 }) }
        XCTAssertNil(table.update(address(9), horizon: horizon) { $0 += 1 }, "no room, and nobody may be forgotten")
        XCTAssertEqual((0..<4).map { table.debt(of: address($0)) }, [160, 160, 160, 160])
        let now = Locked<Double>(1_000)
        // A bound of 2 fills its array of 4 slots at half load: no spare room.
        let limiter = limiter(BoundedDebts<IPAddress>.self, maximumClients: 2, now: now)
        for client in [address(0), address(1)] { for _ in 0..<2 { XCTAssertNil(limiter.takeUnlessRefused(client)) } }
        let refused = limiter.takeUnlessRefused(address(2))
        XCTAssertEqual(refused?.allowed, false, "both remembered clients are over their limits")
        XCTAssertEqual(refused?.retryAfterSeconds, 1800, "an interval: when the first of them may be forgotten")
        now.withLock { $0 += 1800 }
        XCTAssertNil(limiter.takeUnlessRefused(address(2)), "one of them is within its limit again: forgotten for the newcomer")
    }

    /// Paid-off clients are swept a few slots per newcomer: a stream of new addresses that each
    /// pay off keeps the table small without a full pass on any request.
    func testThePaidOffAreSweptAsNewcomersArrive() {
        var table = BoundedDebts<IPAddress>(maximumCount: 100_000, seed: 9)
        var now = 0.0
        for index in 0..<50_000 {
            _ = table.update(address(index), horizon: DebtHorizon(now: now, admissible: now + 1)) { $0 = now + 0.5 }
            now += 1
        }
        XCTAssertLessThan(table.count, 2_000, "each owed half a second, so all but the last few are paid off and swept")
    }
}

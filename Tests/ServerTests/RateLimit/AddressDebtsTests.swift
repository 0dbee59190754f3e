// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import StreamServiceConcurrency
import XCTest
@testable import Server

/// `AddressDebts` (the request cap's open-addressed table) against `DictionaryDebts`, its plain twin.
final class AddressDebtsTests: XCTestCase {
    /// Many addresses (IPv4 and IPv6, some differing only in their high half), updated and read in
    /// one order on both tables, time moving on so some pay off: the same debts throughout (a
    /// paid-off client the sweep forgot reads as never seen), through every doubling and removal.
    func testTheTableAgreesWithADictionary() {
        for seed: UInt64 in [0, 1, 0xDEAD_BEEF] {
            var table = AddressDebts(maximumCount: 10_000, seed: seed), reference = DictionaryDebts<IPAddress>(maximumCount: 10_000)
            // Spread by a multiplicative step: a fixed sequence, so a failure repeats.
            let addresses = (0..<600).map { index -> IPAddress in
                let spread = UInt64(index) &* 0x9E37_79B9_7F4A_7C15
                return index % 3 == 0 ? IPAddress(high: 0, low: IPAddress.v4Prefix | spread >> 32)
                    : IPAddress(high: spread % 4, low: spread >> 58)
            }
            var now = 100.0
            func owed(_ debt: Double?) -> Double { max(debt ?? now, now) }
            for step in 0..<6_000 {
                let address = addresses[(step &* 7_919) % addresses.count]
                let cost = Double(step % 5)
                let horizon = DebtHorizon(now: now, admissible: now + 10)
                let fast = table.update(address, horizon: horizon) { $0 = max($0, now) + cost; return $0 }
                XCTAssertEqual(fast, reference.update(address, horizon: horizon) { $0 = max($0, now) + cost; return $0 }, "seed \(seed), step \(step)")
                now += Double(step % 3) * 0.05
            }
            for address in addresses { XCTAssertEqual(owed(table.debt(of: address)), owed(reference.debt(of: address)), "seed \(seed)") }
        }
    }

    /// The request cap decides alike on either table.
    func testTheLimiterDecidesAlikeOnEitherTable() {
        let now = Locked<Double>(1_000)
        let policy = RatePolicy(name: "requests", count: 5, period: .seconds(1), burst: 2)
        let fast = LocalRateLimiter<AddressDebts>(policy: policy) { now.withLock { $0 } }
        let plain = LocalRateLimiter<DictionaryDebts<IPAddress>>(policy: policy) { now.withLock { $0 } }
        let clients = ["192.0.2.1", "2001:db8::1", "192.0.2.1", "10.0.0.1", "2001:db8:0:1::1"].map { IPAddress($0)! }
        var refusals = 0
        for step in 0..<300 {
            let client = clients[step % clients.count]
            let decision = fast.takeUnlessRefused(client)
            XCTAssertEqual(decision, plain.takeUnlessRefused(client), "step \(step)")
            if decision != nil { refusals += 1 }
            if step % 11 == 0 {
                fast.charge(client, cost: 3)
                plain.charge(client, cost: 3)
            }
            if step % 13 == 0 {
                let (reserved, level) = fast.reserve(client, cost: 2)
                XCTAssertEqual(reserved, plain.reserve(client, cost: 2).decision, "step \(step)")
                XCTAssertEqual(level, plain.reserve(client, cost: 0).level, accuracy: 1e-9, "step \(step)")
            }
            now.withLock { $0 += Double(step % 7) * 0.03 }
        }
        XCTAssertGreaterThan(refusals, 10, "the sequence must reach refusals to compare them")
    }
}

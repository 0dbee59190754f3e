import NetCore
import StreamServiceConcurrency
import XCTest
@testable import Server

/// `AddressDebts` (the request cap's open-addressed table) against `[IPAddress: Double]`, its plain twin.
final class AddressDebtsTests: XCTestCase {
    /// Many addresses (IPv4 and IPv6, some differing only in their high half), updated, read and
    /// forgotten in one order on both tables: the same debts throughout, through every doubling.
    func testTheTableAgreesWithADictionary() {
        for seed: UInt64 in [0, 1, 0xDEAD_BEEF] {
            var table = AddressDebts(seed: seed), reference: [IPAddress: Double] = [:]
            // Spread by a multiplicative step: a fixed sequence, so a failure repeats.
            let addresses = (0..<600).map { index -> IPAddress in
                let spread = UInt64(index) &* 0x9E37_79B9_7F4A_7C15
                return index % 3 == 0 ? IPAddress(high: 0, low: IPAddress.v4Prefix | spread >> 32)
                    : IPAddress(high: spread % 4, low: spread >> 58)
            }
            for step in 0..<4_000 {
                let address = addresses[(step &* 7_919) % addresses.count]
                let cost = Double(step % 5)
                XCTAssertEqual(table.update(address, initial: 100) { $0 += cost; return $0 },
                               reference.update(address, initial: 100) { $0 += cost; return $0 }, "seed \(seed), step \(step)")
                if step % 997 == 0 {
                    let line = Double(100 + step % 7)
                    table.forget { $0 <= line }
                    reference.forget { $0 <= line }
                }
                XCTAssertEqual(table.count, reference.count, "seed \(seed), step \(step)")
            }
            for address in addresses { XCTAssertEqual(table.debt(of: address), reference.debt(of: address), "seed \(seed)") }
        }
    }

    /// The request cap decides alike on either table.
    func testTheLimiterDecidesAlikeOnEitherTable() {
        let now = Locked<Double>(1_000)
        let policy = RatePolicy(name: "requests", count: 5, period: .seconds(1), burst: 2)
        let fast = LocalRateLimiter<AddressDebts>(policy: policy) { now.withLock { $0 } }
        let plain = LocalRateLimiter<[IPAddress: Double]>(policy: policy) { now.withLock { $0 } }
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
            XCTAssertEqual(fast.admit(client), plain.admit(client), "step \(step)")
            now.withLock { $0 += Double(step % 7) * 0.03 }
        }
        XCTAssertGreaterThan(refusals, 10, "the sequence must reach refusals to compare them")
    }

}

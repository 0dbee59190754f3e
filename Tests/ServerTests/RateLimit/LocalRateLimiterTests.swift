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
}

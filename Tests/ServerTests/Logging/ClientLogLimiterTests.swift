// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import Server

/// The log limiter for lines clients cause: per client, and in all. Time is passed in, so every
/// case runs at fixed instants (no sleeping).
final class ClientLogLimiterTests: XCTestCase {
    private let start = ContinuousClock.now

    private func limiter(perClient: Int = 3, overall: Int = 100, maxClients: Int = 16) -> ClientLogLimiter {
        ClientLogLimiter(
            perClient: .init(burst: perClient, perSecond: 1), overall: .init(burst: overall, perSecond: 10), maxClients: maxClients, now: start)
    }

    func testAnotherClientsLineIsLetThroughWhileANoisyClientIsHeldBack() {
        let limiter = limiter()
        for _ in 0..<3 { XCTAssertEqual(limiter.admit(from: "192.0.2.1:4000", now: start), 0) }
        XCTAssertNil(limiter.admit(from: "192.0.2.1:4001", now: start), "the noisy client's burst is spent")
        XCTAssertEqual(limiter.admit(from: "192.0.2.2:4000", now: start), 0, "a quiet client is not held back by it")
    }

    func testTheNextLineLetThroughSaysHowManyOfItsClientsWereHeldBack() {
        let limiter = limiter()
        for _ in 0..<3 { _ = limiter.admit(from: "192.0.2.1:4000", now: start) }
        for _ in 0..<5 { XCTAssertNil(limiter.admit(from: "192.0.2.1:4000", now: start)) }
        XCTAssertEqual(limiter.admit(from: "192.0.2.2:4000", now: start), 0, "another client's count is its own")
        XCTAssertEqual(limiter.admit(from: "192.0.2.1:4000", now: start + .seconds(1)), 5)
    }

    func testAllClientsTogetherAreBoundedByTheOverallBucket() {
        let limiter = limiter(perClient: 3, overall: 4)
        let admitted = (1...10).filter { limiter.admit(from: "192.0.2.\($0):4000", now: start) != nil }
        XCTAssertEqual(admitted.count, 4)
    }

    func testAnIPv6ClientIsOneClientAcrossItsSlash64() {
        let limiter = limiter()
        for host in 1...3 { XCTAssertNotNil(limiter.admit(from: "[2001:db8:0:1::\(host)]:443", now: start)) }
        XCTAssertNil(limiter.admit(from: "[2001:db8:0:1::ffff]:443", now: start), "the same /64")
        XCTAssertNotNil(limiter.admit(from: "[2001:db8:0:2::1]:443", now: start), "another /64")
    }

    func testAFullTableForgetsQuietClientsToMakeRoom() {
        let limiter = limiter(perClient: 1, maxClients: 2)
        XCTAssertNotNil(limiter.admit(from: "192.0.2.1:1", now: start))
        XCTAssertNotNil(limiter.admit(from: "192.0.2.2:1", now: start))
        // Table full, nobody quiet yet: the newcomer shares the overflow bucket.
        XCTAssertNotNil(limiter.admit(from: "192.0.2.3:1", now: start))
        XCTAssertNil(limiter.admit(from: "192.0.2.4:1", now: start), "the overflow bucket is spent too")
        // A second later both first clients are full again and owe nothing: forgotten, room made.
        XCTAssertNotNil(limiter.admit(from: "192.0.2.4:1", now: start + .seconds(2)))
        XCTAssertNotNil(limiter.admit(from: "192.0.2.5:1", now: start + .seconds(2)))
    }
}

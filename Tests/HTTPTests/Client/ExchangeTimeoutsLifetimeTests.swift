// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import StreamServiceConcurrency
import XCTest
@testable import HTTP
import HTTPTestSupport

/// A client's request-timeout queue (`ExchangeTimeouts`) is held by its own timer's handler, not
/// referenced weakly (no side table): its owner's going cancels the timer, which lets it go.
final class ExchangeTimeoutsLifetimeTests: XCTestCase {
    private final class Exchange: TimedExchange {
        let timeouts = Locked(0)
        func timedOut() { timeouts.withLock { $0 += 1 } }
    }

    private let loop = EventLoop(label: "test.exchange-timeouts")

    private func owner() -> ExchangeTimeouts.Owner {
        ExchangeTimeouts.Owner(loop: loop, outOfOrder: CurrentLoopScheduler(fallback: loop))
    }

    func testAQueueGoesOnceItsOwnerGoes() {
        weak var queue: ExchangeTimeouts?
        do {
            let owner = owner()
            queue = owner.timeouts
            loop.sync {}
            XCTAssertNotNil(queue, "its timer holds it")
        }
        // The timer's cancel was queued to the loop before this.
        loop.sync {}
        XCTAssertNil(queue)
    }

    func testAQueueLetsItsArmedExchangesGoWithIt() {
        weak var queue: ExchangeTimeouts?
        weak var armed: Exchange?
        do {
            let owner = owner()
            let exchange = Exchange()
            queue = owner.timeouts
            armed = exchange
            _ = owner.timeouts.arm(exchange, after: .seconds(60))
            XCTAssertEqual(owner.timeouts.count, 1)
        }
        loop.sync {}
        XCTAssertNil(queue)
        XCTAssertNil(armed)
    }

    func testAnArmedExchangeTimesOutWhileItsOwnerLives() {
        let owner = owner()
        let exchange = Exchange()
        _ = owner.timeouts.arm(exchange, after: .milliseconds(20))
        waitUntil("the timer ended the exchange") { exchange.timeouts.withLock { $0 } == 1 }
        XCTAssertEqual(owner.timeouts.count, 0)
    }
}

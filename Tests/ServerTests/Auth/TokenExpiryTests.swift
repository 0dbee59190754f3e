// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Streams
import StreamsTesting
import XCTest
@testable import Server

/// `TokenExpiry` in virtual time: the stream ends with `expired` exactly when the token does.
final class TokenExpiryTests: XCTestCase {
    private let scheduler = TestScheduler()
    private let events = Streamer<[UInt8]>()
    private let recorder = EventRecorder<[UInt8]>()
    private var subscription: Disposable?

    /// Records the events stream as it is when its token expires in ten virtual seconds.
    override func setUp() {
        subscription = recorder.watch(TokenExpiry.ending(events.asDataStream(), after: .seconds(10), on: scheduler))
    }

    override func tearDown() {
        subscription?.dispose()
    }

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    func testEventsPassUntilTheExpiryThenExpiredEndsTheStream() {
        events.data(Array("a".utf8))
        scheduler.advance(by: .seconds(9))
        events.data(Array("b".utf8))
        XCTAssertFalse(recorder.ended)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(recorder.values.map(text), ["a", "b", text(TokenExpiry.expiredEvent)])
        XCTAssertTrue(recorder.ended)
        events.data(Array("c".utf8))
        XCTAssertEqual(recorder.values.count, 3, "nothing after expired")
    }

    func testAStreamThatEndsFirstGetsNoExpiredEvent() {
        events.data(Array("a".utf8))
        events.end()
        scheduler.advance(by: .seconds(20))
        XCTAssertEqual(recorder.values.map(text), ["a"])
        XCTAssertTrue(recorder.ended)
    }

    func testAnExpiryBeyondAnyTimerWaitsTheLongestInsteadOfTrapping() {
        XCTAssertEqual(TokenExpiry.delay(seconds: 1e300), .seconds(TokenExpiry.longestWaitSeconds))
        XCTAssertEqual(TokenExpiry.delay(seconds: .infinity), .seconds(TokenExpiry.longestWaitSeconds))
    }

    func testAnExpiryThatIsNoNumberEndsTheStreamAtOnce() {
        XCTAssertEqual(TokenExpiry.delay(seconds: .nan), .zero)
        XCTAssertEqual(TokenExpiry.delay(seconds: -5), .zero)
    }

    func testTheExpiredEventIsAnSSEMessageNamedExpired() {
        XCTAssertTrue(text(TokenExpiry.expiredEvent).hasPrefix("event: expired\n"), text(TokenExpiry.expiredEvent))
    }
}

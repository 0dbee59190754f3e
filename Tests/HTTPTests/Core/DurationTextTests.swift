// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import XCTest

/// Durations in messages are written as people write them.
final class DurationTextTests: XCTestCase {
    func testSubMillisecondDurationsAreInMicroseconds() {
        XCTAssertEqual(Duration.microseconds(250).text, "250 µs")
    }

    func testMillisecondsKeepOneDecimalBelowTenAndNoneAbove() {
        XCTAssertEqual(Duration.microseconds(1500).text, "1.5 ms")
        XCTAssertEqual(Duration.milliseconds(2).text, "2 ms")
        XCTAssertEqual((Duration.nanoseconds(16_413_882)).text, "16 ms")
        XCTAssertEqual(Duration.milliseconds(999).text, "999 ms")
    }

    func testSecondsKeepOneDecimalBelowTen() {
        XCTAssertEqual(Duration.milliseconds(1500).text, "1.5 s")
        XCTAssertEqual(Duration.seconds(10).text, "10 s")
        XCTAssertEqual(Duration.milliseconds(36_400).text, "36 s")
    }

    func testMinutesAndHoursAreSpelledOut() {
        XCTAssertEqual(Duration.seconds(60).text, "1 min")
        XCTAssertEqual(Duration.seconds(125).text, "2 min 5 s")
        XCTAssertEqual(Duration.seconds(5400).text, "1 h 30 min")
        XCTAssertEqual(Duration.seconds(7200).text, "2 h")
    }

    func testNegativeDurationsKeepTheirSign() {
        XCTAssertEqual(Duration.milliseconds(-16).text, "-16 ms")
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import Domain

/// Pipeline events' and log lines' times: RFC 3339 with milliseconds in UTC, as Foundation's ISO 8601 style writes them.
final class RFC3339TimestampTests: XCTestCase {
    func testTimesAreWrittenAsTheISO8601StyleWritesThem() {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        // Fractions exact in binary, so neither side rounds differently.
        for seconds in [0, 951_782_400.5, 1_700_000_000.125, 1_795_000_000.875, 4_102_444_799.25] {
            let date = Date(timeIntervalSince1970: seconds)
            XCTAssertEqual(RFC3339Timestamp.format(date), date.formatted(style), "\(seconds)")
        }
    }

    func testAKnownTime() {
        XCTAssertEqual(RFC3339Timestamp.format(Date(timeIntervalSince1970: 1_700_000_000.125)), "2023-11-14T22:13:20.125Z")
    }
}

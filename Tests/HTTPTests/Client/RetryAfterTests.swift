// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTP
import XCTest

/// `Retry-After` values as a peer writes them: both forms read, every bad one ignored.
final class RetryAfterTests: XCTestCase {
    /// Sun, 06 Nov 1994 08:49:37 GMT, RFC 9110's example date.
    private let example = Date(timeIntervalSince1970: 784_111_777)

    func testDelaySecondsAreReadWithSurroundingWhitespace() {
        XCTAssertEqual(RetryAfter("120"), .seconds(120))
        XCTAssertEqual(RetryAfter(" 2\t"), .seconds(2))
        XCTAssertEqual(RetryAfter("0"), .seconds(0))
        XCTAssertEqual(RetryAfter("2")?.delay(from: example), .seconds(2))
    }

    func testAnIMFFixdateIsWaitedUntil() {
        XCTAssertEqual(RetryAfter("Sun, 06 Nov 1994 08:49:37 GMT"), .date(example))
        XCTAssertEqual(RetryAfter("Sun, 06 Nov 1994 08:49:39 GMT")?.delay(from: example), .seconds(2))
    }

    func testTheObsoleteDateFormsAreReadToo() {
        XCTAssertEqual(RetryAfter("Sunday, 06-Nov-94 08:49:37 GMT"), .date(example))
        XCTAssertEqual(RetryAfter("Sun Nov  6 08:49:37 1994"), .date(example))
    }

    func testADatePastIsNoWait() {
        XCTAssertEqual(RetryAfter("Sun, 06 Nov 1994 08:49:30 GMT")?.delay(from: example), .zero)
    }

    func testLeapDaysAndCenturiesCount() {
        XCTAssertEqual(RetryAfter("Tue, 29 Feb 2000 00:00:00 GMT"), .date(Date(timeIntervalSince1970: 951_782_400)))
        XCTAssertEqual(RetryAfter("Sat, 01 Jan 2000 00:00:00 GMT"), .date(Date(timeIntervalSince1970: 946_684_800)))
        XCTAssertEqual(RetryAfter("Thu, 01 Jan 1970 00:00:00 GMT"), .date(Date(timeIntervalSince1970: 0)))
    }

    func testBadValuesAreIgnored() {
        for value in [
            "", " ", "soon", "-5", "1.5", "+3", "2 s", "99999999999999999999999",
            "Sun, 31 Feb 2021 08:49:37 GMT", "Mon, 29 Feb 2021 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 06 Nov 1994 08:60:37 GMT", "Sun, 06 Xyz 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 PST",
            "Sun, 6 Nov 1994 08:49:37", "Funday, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 199 08:49:37 GMT",
            "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT",
        ] {
            XCTAssertNil(RetryAfter(value), "\(value.debugDescription) is no Retry-After")
        }
    }

    func testAnHTTPStatusErrorCarriesTheWaitFromWhenTheAnswerArrived() {
        let answer = HTTPClientResponse(status: .serviceUnavailable, headers: ["Retry-After": "Sun, 06 Nov 1994 08:49:40 GMT"])
        XCTAssertEqual(HTTPStatusError(answer, now: example).retryAfter, .seconds(3))
        XCTAssertNil(HTTPStatusError(HTTPClientResponse(status: .serviceUnavailable, headers: ["Retry-After": "later"])).retryAfter)
        XCTAssertNil(HTTPStatusError(HTTPClientResponse(status: .badGateway)).retryAfter)
    }

    func testRetryableStatusesAre5xxAnd429() {
        XCTAssertEqual((100...599).filter { HTTPStatus(code: $0).isRetryable }, [429] + Array(500...599))
    }
}

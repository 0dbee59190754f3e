// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import Server

/// `--events-history` / `EVENTS_HISTORY`: how many `/events` messages a `Last-Event-ID` resume can replay.
final class EventsHistoryConfigurationTests: XCTestCase {
    func testTheDefaultIsAThousandEvents() throws {
        XCTAssertEqual(try ServiceConfiguration.resolve(flags: [:], environment: [:]).eventsHistory, 1000)
    }

    func testTheFlagAndThenTheEnvironmentSetIt() throws {
        XCTAssertEqual(try ServiceConfiguration.resolve(flags: [.eventsHistory: "50000"], environment: ["EVENTS_HISTORY": "7"]).eventsHistory, 50000)
        XCTAssertEqual(try ServiceConfiguration.resolve(flags: [:], environment: ["EVENTS_HISTORY": "7"]).eventsHistory, 7)
    }

    func testAValueOutsideItsRangeIsRefusedNamingTheFlagAndTheRange() {
        for value in ["0", "-5", "1000001", "lots"] {
            XCTAssertThrowsError(try ServiceConfiguration.resolve(flags: [.eventsHistory: value], environment: [:])) { error in
                XCTAssertEqual(
                    (error as? ConfigurationError)?.description,
                    "error: invalid value \"\(value)\" for --events-history: expected an integer from 1 to 1000000")
            }
        }
    }

    func testTheHelpStatesTheMemoryCostOfEachEvent() throws {
        let service = try ServiceProcess(["serve", "--help"])
        XCTAssertEqual(service.exitStatus(), 0)
        let help = service.output.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        XCTAssertTrue(help.contains("--events-history"), help)
        XCTAssertTrue(help.contains("[env: EVENTS_HISTORY]"), help)
        XCTAssertNotNil(help.firstMatch(of: /costs about [\d,]+ bytes/), help)
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import Server

final class NegativeOptionValuesTests: XCTestCase {
    func testANegativeNumberAfterALongOptionIsJoinedToIt() {
        XCTAssertEqual(NegativeOptionValues.joined(["serve", "--port", "-1", "--host", "::1"]), ["serve", "--port=-1", "--host", "::1"])
        XCTAssertEqual(NegativeOptionValues.joined(["--demo-failure-rate", "-0.5"]), ["--demo-failure-rate=-0.5"])
    }

    func testAnythingElseIsLeftAsItIs() {
        for arguments in [
            ["--port=-1"], ["--port", "8080"], ["--port", "-x"], ["--port", "--host", "a"], ["--port", "-"],
            ["--port", "-1.2.3"], ["-p", "-1"], ["--", "--port", "-1"], ["--port"],
        ] {
            XCTAssertEqual(NegativeOptionValues.joined(arguments), arguments)
        }
    }
}

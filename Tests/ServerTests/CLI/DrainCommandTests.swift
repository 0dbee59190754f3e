// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest

/// `stream-service drain`: what it refuses, in one line, before it signals anything.
final class DrainCommandTests: XCTestCase {
    func testAPidBelowOneIsRefusedWithoutSignallingAnything() throws {
        let drain = try ServiceProcess(["drain", "--pid", "0", "--wait", "0"])
        XCTAssertEqual(drain.exitStatus(), 64)
        XCTAssertTrue(drain.errorOutput.contains("--pid must be a process id above 0"), drain.errorOutput)
    }

    func testAWaitBeyondAnHourIsRefused() throws {
        let drain = try ServiceProcess(["drain", "--pid", "1", "--wait", "7200"])
        XCTAssertEqual(drain.exitStatus(), 64)
        XCTAssertTrue(drain.errorOutput.contains("--wait must be 0…3600 seconds"), drain.errorOutput)
    }

    func testAProcessThatDoesNotExistFailsWithTheReason() throws {
        // Above /proc/sys/kernel/pid_max's largest value (4,194,304): never a live process.
        let drain = try ServiceProcess(["drain", "--pid", "2147483647", "--wait", "0"])
        XCTAssertEqual(drain.exitStatus(), 1)
        XCTAssertTrue(drain.output.contains("cannot drain process 2147483647: No such process"), drain.output)
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import ProcessTestSupport
import XCTest

final class ChildProcessTests: XCTestCase {
    func testCapturesStandardOutputAndStandardErrorSeparately() throws {
        let run = try ChildProcess.run("/bin/sh", ["-c", "echo out; echo err >&2"])
        XCTAssertEqual(run.termination, .exited(0))
        XCTAssertEqual(run.output, "out\n")
        XCTAssertEqual(run.errorOutput, "err\n")
    }

    func testStandardErrorCanJoinStandardOutput() throws {
        let run = try ChildProcess.run("/bin/sh", ["-c", "echo out; echo err >&2"], errorOutput: .intoOutput)
        XCTAssertEqual(run.output, "out\nerr\n")
        XCTAssertEqual(run.errorOutput, "")
    }

    func testReportsTheExitStatusOfAFailingCommand() throws {
        XCTAssertEqual(try ChildProcess.run("/bin/sh", ["-c", "exit 3"]).termination, .exited(3))
    }

    func testReportsAChildKilledByASignalAsSuch() throws {
        let child = try ChildProcess("/bin/sleep", ["60"])
        child.signal(SIGTERM)
        XCTAssertEqual(child.wait(within: 10), .killed(signal: SIGTERM))
    }

    func testAChildStartsWithDefaultSignalHandlersThoughTheTestProcessIgnoresSIGPIPE() throws {
        let previous = Glibc.signal(SIGPIPE, SIG_IGN)
        defer { Glibc.signal(SIGPIPE, previous) }
        let child = try ChildProcess("/bin/sleep", ["60"])
        child.signal(SIGPIPE)
        XCTAssertEqual(child.wait(within: 10), .killed(signal: SIGPIPE), "an inherited SIG_IGN would have kept it running")
    }

    func testAMissingExecutableThrowsAnErrorNamingIt() {
        XCTAssertThrowsError(try ChildProcess("/nonexistent/tool")) { error in
            XCTAssertTrue(String(describing: error).contains("/nonexistent/tool"), String(describing: error))
        }
    }

    func testPassesTheEnvironmentWithTheGivenChanges() throws {
        let inherited = try XCTUnwrap(ProcessInfo.processInfo.environment["PATH"])
        let run = try ChildProcess.run(
            "/bin/sh", ["-c", #"echo "$CHILD_PROCESS_TEST|${HOME-unset}|$PATH""#],
            environment: ["CHILD_PROCESS_TEST": "set here", "HOME": nil])
        XCTAssertEqual(run.output, "set here|unset|\(inherited)\n")
    }

    func testACommandWritingMoreThanAPipeBufferDoesNotBlock() throws {
        // 1 MiB on each stream: 16 times a Linux pipe's 64 KiB buffer.
        let run = try ChildProcess.run("/bin/sh", ["-c", "head -c 1048576 /dev/zero; head -c 1048576 /dev/zero >&2"], within: 20)
        XCTAssertEqual(run.termination, .exited(0))
        XCTAssertEqual(run.output.utf8.count, 1_048_576)
        XCTAssertEqual(run.errorOutput.utf8.count, 1_048_576)
    }

    func testWaitingIsBoundedWhileTheChildRuns() throws {
        let child = try ChildProcess("/bin/sleep", ["60"])
        XCTAssertNil(child.wait(within: 0.05))
        XCTAssertTrue(child.isRunning)
    }

    func testTerminateKillsAStoppedChildAndReapsIt() throws {
        let child = try ChildProcess("/bin/sleep", ["60"])
        child.signal(SIGSTOP)
        child.terminate()
        XCTAssertEqual(child.termination, .killed(signal: SIGKILL))
        XCTAssertEqual(kill(child.pid, 0), -1, "the PID is free: the child was reaped")
    }

    func testDroppingTheLastReferenceKillsAndReapsTheChild() throws {
        var child: ChildProcess? = try ChildProcess("/bin/sleep", ["60"])
        let pid = try XCTUnwrap(child?.pid)
        child = nil
        XCTAssertEqual(kill(pid, 0), -1, "no process, not even a zombie, has PID \(pid)")
    }

    func testTheChildInheritsNoDescriptorButTheStandardThree() throws {
        let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0) // not close-on-exec
        defer { close(listening) }
        let run = try ChildProcess.run("/bin/ls", ["/proc/self/fd"])
        // ls's own descriptor for the directory it lists is the one above 2.
        XCTAssertEqual(run.output.split(separator: "\n").compactMap { Int($0) }.filter { $0 > 2 }.count, 1, run.output)
    }

    func testWaitsForAnOutputLine() throws {
        let child = try ChildProcess("/bin/sh", ["-c", "echo ready; exec sleep 60"])
        XCTAssertTrue(child.waitForOutput(within: 10) { $0.hasSuffix("\n") })
        XCTAssertEqual(child.output, "ready\n")
    }
}

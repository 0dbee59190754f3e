// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import ProcessTestSupport
import XCTest

/// `scripts/cluster` reads its arguments before it builds or starts anything: `--help` used to
/// build the service and start Redis, three replicas and HAProxy, then print usage and exit 64.
final class ClusterScriptTests: XCTestCase {
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/cluster").path

    /// The script run to its end; 10 s is far more than reading arguments takes, far less than a build.
    private func run(_ arguments: [String]) throws -> ChildProcess.Completed {
        try ChildProcess.run("/bin/bash", [Self.script] + arguments, within: 10)
    }

    func testHelpPrintsUsageAndExitsZeroWithoutBuildingOrStartingAnything() throws {
        for flag in ["--help", "-h", "help"] {
            let run = try run([flag])
            XCTAssertEqual(run.termination, .exited(0), "\(flag): \(run.errorOutput)")
            XCTAssertTrue(run.output.hasPrefix("usage: scripts/cluster demo|up|bench"), "\(flag): \(run.output)")
            XCTAssertEqual(run.errorOutput, "", "\(flag) built or started something")
        }
    }

    func testTheUsageSaysWhichBuildItRuns() throws {
        XCTAssertTrue(try run(["--help"]).output.contains("CONFIG=debug"))
    }

    func testTheUsageNamesTheFailoverModeAndTheSentinelTopology() throws {
        let usage = try run(["--help"]).output
        XCTAssertTrue(usage.contains("failover  the HA topology under load"), usage)
        XCTAssertTrue(usage.contains("--subscribers N") && usage.contains("--failovers N") && usage.contains("--replicas N"), usage)
        XCTAssertTrue(usage.contains("REDIS_HA=1"), usage)
    }

    func testAnUnknownModeOrFlagExits64BeforeStartingAnything() throws {
        let failoverMistakes = [["failover", "--bogus"], ["failover", "--subscribers", "many"], ["failover", "--replicas", "0"]]
        for arguments in [["--bogus"], ["sideways"], ["up", "--bogus"]] + failoverMistakes {
            let run = try run(arguments)
            XCTAssertEqual(run.termination, .exited(64), "\(arguments): \(run.errorOutput)")
            XCTAssertTrue(run.errorOutput.contains("usage: scripts/cluster"), "\(arguments): \(run.errorOutput)")
            XCTAssertFalse(run.errorOutput.contains("cluster up"), "\(arguments) started the cluster: \(run.errorOutput)")
            XCTAssertFalse(run.errorOutput.contains("building stream-service"), "\(arguments) built the service: \(run.errorOutput)")
        }
    }
}

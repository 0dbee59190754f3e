// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import Server

/// `--upstream-cache-bytes` / `UPSTREAM_CACHE_BYTES` and `--demo-rate-limit` / `DEMO_RATE_LIMIT`.
final class UpstreamFlagsTests: XCTestCase {
    func testCacheDefaultsTo64MiBAndTheDemoToNoRateLimit() throws {
        let configuration = try ServiceConfiguration.resolve(flags: [:], environment: [:])
        XCTAssertEqual(configuration.upstreamCacheBytes, 64 * 1024 * 1024)
        XCTAssertEqual(configuration.demoRateLimit, 0)
    }

    func testEnvironmentSetsBoth() throws {
        let configuration = try ServiceConfiguration.resolve(flags: [:], environment: ["UPSTREAM_CACHE_BYTES": "0", "DEMO_RATE_LIMIT": "60"])
        XCTAssertEqual(configuration.upstreamCacheBytes, 0, "0 disables the cache")
        XCTAssertEqual(configuration.demoRateLimit, 60)
    }

    func testFlagsAreNamedAfterTheirVariables() {
        XCTAssertEqual(ConfigurationSetting.upstreamCacheBytes.flag, "--upstream-cache-bytes")
        XCTAssertEqual(ConfigurationSetting.upstreamCacheBytes.environmentVariable, "UPSTREAM_CACHE_BYTES")
        XCTAssertEqual(ConfigurationSetting.demoRateLimit.flag, "--demo-rate-limit")
    }

    func testSingleFlightIsOnByDefaultAndTurnedOffByFlagOrEnvironment() throws {
        XCTAssertTrue(try ServiceConfiguration.resolve(flags: [:], environment: [:]).upstreamSingleFlight)
        XCTAssertFalse(try ServiceConfiguration.resolve(flags: [.upstreamSingleFlight: "false"], environment: [:]).upstreamSingleFlight)
        XCTAssertFalse(try ServiceConfiguration.resolve(flags: [:], environment: ["UPSTREAM_SINGLE_FLIGHT": "false"]).upstreamSingleFlight)
        XCTAssertEqual(ConfigurationSetting.upstreamSingleFlight.flag, "--upstream-single-flight")
    }

    func testBadSingleFlightValueIsRejectedNamingTheFlag() {
        XCTAssertThrowsError(try ServiceConfiguration.resolve(flags: [.upstreamSingleFlight: "off"], environment: [:])) { error in
            XCTAssertTrue((error as? ConfigurationError)?.description.contains("--upstream-single-flight") ?? false, "\(error)")
        }
    }

    func testGzipIsAskedForByDefaultAndTurnedOffByFlagOrEnvironment() throws {
        XCTAssertTrue(try ServiceConfiguration.resolve(flags: [:], environment: [:]).upstreamGzip)
        XCTAssertFalse(try ServiceConfiguration.resolve(flags: [.upstreamGzip: "false"], environment: [:]).upstreamGzip)
        XCTAssertFalse(try ServiceConfiguration.resolve(flags: [:], environment: ["UPSTREAM_GZIP": "false"]).upstreamGzip)
        XCTAssertEqual(ConfigurationSetting.upstreamGzip.flag, "--upstream-gzip")
    }

    func testBadGzipValueIsRejectedNamingTheFlag() {
        XCTAssertThrowsError(try ServiceConfiguration.resolve(flags: [.upstreamGzip: "yes"], environment: [:])) { error in
            XCTAssertTrue((error as? ConfigurationError)?.description.contains("--upstream-gzip") ?? false, "\(error)")
        }
    }

    func testBadCacheSizeIsRejectedInOneLineNamingTheFlag() {
        XCTAssertThrowsError(try ServiceConfiguration.resolve(flags: [.upstreamCacheBytes: "64MB"], environment: [:])) { error in
            XCTAssertEqual(
                (error as? ConfigurationError)?.description,
                "error: invalid value \"64MB\" for --upstream-cache-bytes: expected an integer from 0 to 1099511627776")
        }
    }

    func testBadCacheSizeExitsWith64AndOneLine() throws {
        let service = try ServiceProcess(["serve", "--upstream-cache-bytes=-1"])
        XCTAssertEqual(service.exitStatus(), 64)
        XCTAssertEqual(service.errorOutput.split(separator: "\n").count, 1, service.errorOutput)
        XCTAssertTrue(service.errorOutput.contains("--upstream-cache-bytes"), service.errorOutput)
    }

    func testBadDemoRateLimitExitsWith64NamingTheVariable() throws {
        let service = try ServiceProcess(["demo-upstream", "--port", "0"], environment: ["DEMO_RATE_LIMIT": "lots"])
        XCTAssertEqual(service.exitStatus(), 64)
        XCTAssertEqual(service.errorOutput.split(separator: "\n").count, 1, service.errorOutput)
        XCTAssertTrue(service.errorOutput.contains("--demo-rate-limit (from DEMO_RATE_LIMIT)"), service.errorOutput)
    }
}

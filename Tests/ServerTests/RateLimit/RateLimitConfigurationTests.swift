// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import Server

/// The `--client-*-rate`, `--client-upstream-burst` and `--upstream-reserve` flags.
final class RateLimitConfigurationTests: XCTestCase {
    private func failure(_ flags: [ConfigurationSetting: String]) -> String {
        do {
            _ = try ServiceConfiguration.resolve(flags: flags, environment: [:])
            return "no error"
        } catch {
            return error.description
        }
    }

    func testRatesTakeACountPerSecondMinuteOrHour() throws {
        let configuration = try ServiceConfiguration.resolve(
            flags: [.clientUpstreamRate: "120/m", .clientUpstreamBurst: "30", .clientRequestRate: "20/s", .upstreamReserve: "250"], environment: [:])
        XCTAssertEqual(configuration.clientUpstreamRate, RatePolicy(name: "upstream", count: 120, period: .seconds(60), burst: 30))
        XCTAssertEqual(configuration.clientRequestRate, RatePolicy(name: "requests", count: 20, period: .seconds(1)))
        XCTAssertEqual(configuration.upstreamReserve, 250)
    }

    func testLimitsAreOffByDefault() throws {
        let configuration = try ServiceConfiguration.resolve(flags: [:], environment: [:])
        XCTAssertNil(configuration.clientUpstreamRate)
        XCTAssertNil(configuration.clientRequestRate)
        XCTAssertNil(configuration.upstreamReserve, "a tenth of what the upstream reports")
    }

    func testABadRateNamesTheFlagAndTheForm() {
        for bad in ["120", "0/m", "12/d", "x/s"] {
            let line = failure([.clientUpstreamRate: bad])
            XCTAssertTrue(line.contains("--client-upstream-rate") && line.contains("e.g. 120/m"), line)
        }
    }

    func testABurstNeedsARate() {
        XCTAssertTrue(failure([.clientUpstreamBurst: "10"]).contains("needs --client-upstream-rate"))
    }

    func testIPv6ClientsAreCountedByTheirSlash64UnlessTheOperatorSaysOtherwise() throws {
        XCTAssertEqual(try ServiceConfiguration.resolve(flags: [:], environment: [:]).rateLimitIPv6Prefix, 64)
        XCTAssertEqual(try ServiceConfiguration.resolve(flags: [.rateLimitIpv6Prefix: "48"], environment: [:]).rateLimitIPv6Prefix, 48)
        XCTAssertEqual(try ServiceConfiguration.resolve(flags: [:], environment: ["RATE_LIMIT_IPV6_PREFIX": "128"]).rateLimitIPv6Prefix, 128)
    }

    func testABadIPv6PrefixNamesTheFlagAndTheRange() {
        for bad in ["0", "129", "-1", "64x", "/64"] {
            let line = failure([.rateLimitIpv6Prefix: bad])
            XCTAssertTrue(line.contains("--rate-limit-ipv6-prefix") && line.contains("from 1 to 128"), line)
        }
    }
}

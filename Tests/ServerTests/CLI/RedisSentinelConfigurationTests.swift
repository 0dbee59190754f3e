// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import Server

/// `--redis-sentinels` with `--redis-master-name`, the alternative to `--redis-url`.
final class RedisSentinelConfigurationTests: XCTestCase {
    func testSentinelListGivesThePrimarysCredentialsDatabaseAndTLS() throws {
        let configuration = try ServiceConfiguration.resolve(
            flags: [.redisSentinels: "rediss://:pw@s1:26379,s2", .redisMasterName: "mymaster"], environment: [:])
        XCTAssertEqual(configuration.redisSentinels?.masterName, "mymaster")
        XCTAssertEqual(configuration.redisSentinels?.list.sentinels.map(\.port), [26379, 26379])
        XCTAssertEqual(configuration.redisURL?.password, "pw")
        XCTAssertEqual(configuration.redisURL?.usesTLS, true)
    }

    func testEnvironmentVariablesAreRead() throws {
        let configuration = try ServiceConfiguration.resolve(flags: [:], environment: ["REDIS_SENTINELS": "s1:26379", "REDIS_MASTER_NAME": "cache"])
        XCTAssertEqual(configuration.redisSentinels?.masterName, "cache")
    }

    func testSentinelsBesideARedisURLAreRefusedNamingWhereCredentialsGo() {
        assertRefused([.redisSentinels: "s1:26379", .redisMasterName: "m", .redisUrl: "redis://h:6379"],
                      "error: --redis-sentinels: cannot be combined with --redis-url: give the primary's credentials")
    }

    func testSentinelsWithoutAMasterNameAreRefused() {
        assertRefused([.redisSentinels: "s1:26379"], "error: --redis-sentinels: needs --redis-master-name")
    }

    func testMasterNameWithoutSentinelsIsRefused() {
        assertRefused([.redisMasterName: "mymaster"], "error: --redis-master-name: needs --redis-sentinels")
    }

    func testMalformedListIsRefusedWithoutEchoingThePassword() {
        assertRefused([.redisSentinels: ":secret@s1:port", .redisMasterName: "m"], "error: --redis-sentinels: invalid sentinel list: 's1:port'")
    }

    private func assertRefused(_ flags: [ConfigurationSetting: String], _ prefix: String, line: UInt = #line) {
        XCTAssertThrowsError(try ServiceConfiguration.resolve(flags: flags, environment: [:]), line: line) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.hasPrefix(prefix), text, line: line)
            XCTAssertFalse(text.contains("secret"), text, line: line)
        }
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Redis
import XCTest

final class RedisURLTests: XCTestCase {
    func testHostAloneDefaultsToPort6379AndDatabase0() throws {
        let url = try RedisURL(parsing: "redis://cache.internal")
        XCTAssertEqual(url, RedisURL(host: "cache.internal", port: 6379, database: 0))
    }

    func testUserPasswordPortAndDatabaseAreRead() throws {
        let url = try RedisURL(parsing: "redis://app:s3cret@10.0.0.5:6380/2")
        XCTAssertEqual(url, RedisURL(host: "10.0.0.5", port: 6380, user: "app", password: "s3cret", database: 2))
    }

    func testPasswordWithoutUserIsAcceptedInBothSpellings() throws {
        XCTAssertEqual(try RedisURL(parsing: "redis://:pw@h:1").password, "pw")
        XCTAssertEqual(try RedisURL(parsing: "redis://:pw@h:1").user, nil)
        XCTAssertEqual(try RedisURL(parsing: "redis://pw@h:1").password, "pw")
    }

    func testPercentEncodedPasswordIsDecoded() throws {
        XCTAssertEqual(try RedisURL(parsing: "redis://:p%40ss%2Fword@h").password, "p@ss/word")
    }

    func testRedissSchemeMeansTLS() throws {
        XCTAssertTrue(try RedisURL(parsing: "rediss://h:6380").usesTLS)
        XCTAssertFalse(try RedisURL(parsing: "redis://h:6380").usesTLS)
    }

    func testBracketedIPv6HostIsRead() throws {
        let url = try RedisURL(parsing: "redis://[::1]:7000/1")
        XCTAssertEqual(url.host, "::1")
        XCTAssertEqual(url.port, 7000)
        XCTAssertEqual(url.database, 1)
    }

    func testDescriptionMasksThePassword() throws {
        let url = try RedisURL(parsing: "redis://app:s3cret@h:1/3")
        XCTAssertEqual(url.description, "redis://app:***@h:1/3")
    }

    func testMalformedURLsAreRejectedWithTheReason() {
        let cases: [(String, String)] = [
            ("http://h:6379", "scheme must be redis:// or rediss://"),
            ("redis://", "missing host"),
            ("redis://:pw@:6379", "missing host"),
            ("redis://h:port", "port 'port' is not a number"),
            ("redis://h:0", "is not a number in 1...65535"),
            ("redis://h:70000", "is not a number in 1...65535"),
            ("redis://h:6379/x", "database 'x' is not a non-negative number"),
            ("redis://h:6379/-1", "database '-1'"),
            ("redis://h:6379?db=1", "query, fragment and whitespace are not allowed"),
            ("redis://:p%zz@h", "bad percent-encoding in the password"),
            ("redis://[::1:6379", "unterminated IPv6 address"),
        ]
        for (text, reason) in cases {
            XCTAssertThrowsError(try RedisURL(parsing: text), text) { error in
                let message = String(describing: error)
                XCTAssertTrue(message.hasPrefix("invalid Redis URL: "), message)
                XCTAssertTrue(message.contains(reason), "\(text): \(message)")
            }
        }
    }
}

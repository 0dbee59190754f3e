// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTPTestSupport
import Redis
import RedisTestSupport
import XCTest

/// `RedisScript` against a real redis-server: called by SHA-1, stored again by EVAL.
final class RedisScriptTests: XCTestCase {
    private var server: RedisServerProcess!
    private var connection: RedisConnection!
    private let script = RedisScript("return {KEYS[1], ARGV[1]}")

    override func setUpWithError() throws {
        server = try RedisServerProcess()
        let connection = try RedisConnection(configuration: RedisConfiguration(url: try RedisURL(parsing: server.url)))
        self.connection = connection
        connection.start()
        waitUntil("connected", timeout: 5) { connection.state == .connected }
    }

    override func tearDown() {
        connection?.close()
        server?.stop()
    }

    func testTheSHA1IsTheNameRedisFilesTheScriptUnder() throws {
        XCTAssertEqual(try connection.reply(["SCRIPT", "LOAD", script.source]), .bulkString(Array(script.sha1.utf8)))
    }

    func testEVALSHAOfAScriptRedisLacksIsAMissingScriptError() throws {
        XCTAssertThrowsError(try connection.reply(script.evalSHA(keys: ["k"], arguments: ["a"]))) { error in
            XCTAssertTrue((error as? RedisError).map(RedisScript.isMissingScript) ?? false, "\(error)")
        }
        XCTAssertFalse(RedisScript.isMissingScript(.server("ERR wrong number of arguments")))
        XCTAssertFalse(RedisScript.isMissingScript(.closed))
    }

    func testEVALRunsTheScriptAndStoresItForEVALSHA() throws {
        XCTAssertEqual(try connection.reply(script.eval(keys: ["k"], arguments: ["a"])), .array([.bulkString(Array("k".utf8)), .bulkString(Array("a".utf8))]))
        XCTAssertEqual(try connection.reply(script.evalSHA(keys: ["k2"], arguments: ["b"])), .array([.bulkString(Array("k2".utf8)), .bulkString(Array("b".utf8))]))
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import HTTPTestSupport
import NetCore
import StreamServiceConcurrency
import Streams
import XCTest

/// Connections are accepted on the first loop and handed out round-robin, so each loop
/// serves an equal share (a loop with more connections than another is where the tail
/// latency grows).
final class LoopDistributionTests: XCTestCase {
    /// How many requests each loop (by its scheduler) served, one request per connection to `/loop`.
    private func requestsPerLoop(_ connections: Int, loops loopCount: Int, _ balancing: AcceptBalancing) throws -> [Int] {
        let loops = Locked<[ObjectIdentifier]>([])
        var router = Router()
        router.get("/loop") { request in
            let scheduler = request.loopScheduler.map { ObjectIdentifier($0) }
            if let scheduler { loops.withLock { $0.append(scheduler) } }
            return .just(.text(scheduler == nil ? "none" : "ok"))
        }
        let server = try TestServer(router: router) {
            $0.loopCount = loopCount
            $0.acceptBalancing = balancing
        }
        for _ in 0..<connections {
            let client = try server.client()
            try client.send("GET /loop HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try client.readResponse().bodyText, "ok")
        }
        let seen = loops.withLock { $0 }
        return Set(seen).map { loop in seen.filter { $0 == loop }.count }
    }

    func testConnectionsAreSpreadEvenlyOverTheLoops() throws {
        // One connection after another: the k-th goes to loop k mod 3.
        XCTAssertEqual(try requestsPerLoop(9, loops: 3, .roundRobin), [3, 3, 3])
    }

    func testWithReusePortEveryLoopAcceptsConnectionsOfItsOwn() throws {
        // The kernel hashes connections over the loops' sockets: all 24 on one loop would be a 2^-23 chance.
        let counts = try requestsPerLoop(24, loops: 2, .reusePort)
        XCTAssertEqual(counts.count, 2)
        XCTAssertEqual(counts.reduce(0, +), 24)
    }
}

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
    func testConnectionsAreSpreadEvenlyOverTheLoops() throws {
        let loops = Locked<[ObjectIdentifier]>([])
        var router = Router()
        router.get("/loop") { request in
            let scheduler = request.loopScheduler.map { ObjectIdentifier($0) }
            if let scheduler { loops.withLock { $0.append(scheduler) } }
            return .just(.text(scheduler == nil ? "none" : "ok"))
        }
        let server = try TestServer(router: router) { $0.loopCount = 3 }
        // One request per connection, one connection after another: the k-th goes to loop k mod 3.
        for _ in 0..<9 {
            let client = try server.client()
            try client.send("GET /loop HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try client.readResponse().bodyText, "ok")
        }
        let seen = loops.withLock { $0 }
        XCTAssertEqual(seen.count, 9)
        XCTAssertEqual(Set(seen).count, 3)
        for loop in Set(seen) { XCTAssertEqual(seen.filter { $0 == loop }.count, 3) }
    }
}

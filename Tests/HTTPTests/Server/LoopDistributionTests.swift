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
    /// The loop (its scheduler) that served each request to `/loop`, one request per connection.
    private func loopsServing(_ connections: Int, configure: (inout HTTPServerConfiguration) -> Void) throws -> [ObjectIdentifier] {
        let loops = Locked<[ObjectIdentifier]>([])
        var router = Router()
        router.get("/loop") { request in
            let scheduler = request.loopScheduler.map { ObjectIdentifier($0) }
            if let scheduler { loops.withLock { $0.append(scheduler) } }
            return .just(.text(scheduler == nil ? "none" : "ok"))
        }
        let server = try TestServer(router: router, configure: configure)
        for _ in 0..<connections {
            let client = try server.client()
            try client.send("GET /loop HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try client.readResponse().bodyText, "ok")
        }
        return loops.withLock { $0 }
    }

    func testConnectionsAreSpreadEvenlyOverTheLoops() throws {
        // One connection after another: the k-th goes to loop k mod 3.
        let seen = try loopsServing(9) {
            $0.loopCount = 3
            $0.acceptBalancing = .roundRobin
        }
        XCTAssertEqual(seen.count, 9)
        XCTAssertEqual(Set(seen).count, 3)
        for loop in Set(seen) { XCTAssertEqual(seen.filter { $0 == loop }.count, 3) }
    }

    func testWithReusePortEveryLoopAcceptsConnectionsOfItsOwn() throws {
        // The kernel hashes connections over the loops' sockets: all 24 on one loop would be a 2^-23 chance.
        let seen = try loopsServing(24) {
            $0.loopCount = 2
            $0.acceptBalancing = .reusePort
        }
        XCTAssertEqual(seen.count, 24)
        XCTAssertEqual(Set(seen).count, 2)
    }
}

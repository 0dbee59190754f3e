import XCTest
@testable import HTTP
import HTTPTestSupport

final class LingeringCloseTests: XCTestCase {
    func testClientStillUploadingReadsThe413() throws {
        let server = try TestServer(router: TestServer.standardRouter) { $0.limits.maxBodyBytes = 1000 }
        let client = try server.client()
        // The client sends its whole (too large) body before reading, as curl does for small uploads.
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 400000\r\n\r\n")
        try client.send([UInt8](repeating: 66, count: 400_000))
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 413)
        XCTAssertTrue(client.waitForClose())
    }
}

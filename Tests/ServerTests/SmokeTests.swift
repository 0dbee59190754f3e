import XCTest
@testable import Server
final class ServerSmokeTests: XCTestCase { func testModuleLoads() { XCTAssertTrue(true) } }

import XCTest
@testable import Streams
final class StreamsSmokeTests: XCTestCase { func testModuleLoads() { XCTAssertTrue(true) } }

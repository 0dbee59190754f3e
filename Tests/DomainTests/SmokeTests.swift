import XCTest
@testable import Domain
final class DomainSmokeTests: XCTestCase { func testModuleLoads() { XCTAssertTrue(true) } }

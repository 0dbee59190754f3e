import XCTest
@testable import HTTP

final class RequestIDTests: XCTestCase {
    func testAGeneratedIdIsThePrefixThenTheCounterInHexadecimal() {
        XCTAssertEqual(RequestID.hexadecimal(0, after: "req-"), "req-0")
        XCTAssertEqual(RequestID.hexadecimal(0xbeef, after: "req-"), "req-beef")
        XCTAssertEqual(RequestID.hexadecimal(.max, after: "replica-7-"), "replica-7-ffffffffffffffff")
        XCTAssertEqual(RequestID.hexadecimal(10, after: ""), "a")
    }

    func testGeneratedIdsAreUniqueAndCarryThePrefix() {
        let ids = (0..<100).map { _ in RequestID.next(incoming: nil, prefix: "p-") }
        XCTAssertEqual(Set(ids).count, 100)
        XCTAssertTrue(ids.allSatisfy { $0.hasPrefix("p-") && $0.count > 2 })
    }

    func testTheClientsIdIsKeptOnlyWhenItIsAToken() {
        XCTAssertEqual(RequestID.next(incoming: "client-chosen-7"), "client-chosen-7")
        XCTAssertTrue(RequestID.next(incoming: "two words").hasPrefix("req-"))
        XCTAssertTrue(RequestID.next(incoming: String(repeating: "a", count: 129)).hasPrefix("req-"))
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

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

    func testAClientsIdInTheFamilyOfTheServicesOwnIsReplacedByAGeneratedOne() {
        // Never ids this process makes in a test (the counter would need 16 million requests to
        // reach `req-fffff1`; generated ids are lower-case): so any equality is the client's id kept.
        for lookalike in ["req-fffff1", "REQ-1F", "Req-replica-0-2a", "req-"] {
            let id = RequestID.next(incoming: lookalike)
            XCTAssertNotEqual(id, lookalike)
            XCTAssertTrue(id.hasPrefix("req-"), id)
        }
        XCTAssertEqual(RequestID.next(incoming: "request-7"), "request-7", "only the family itself is reserved")
        XCTAssertEqual(RequestID.next(incoming: "req_7"), "req_7")
    }

    func testAReplicasPrefixReservesTheWholeFamilyNotJustItsOwnIds() {
        XCTAssertNotEqual(RequestID.next(incoming: "req-replica-1-5", prefix: "req-replica-0-"), "req-replica-1-5")
        XCTAssertEqual(RequestID.next(incoming: "client-5", prefix: "req-replica-0-"), "client-5")
        XCTAssertEqual(RequestID.next(incoming: "anything", prefix: ""), "anything", "no prefix, nothing reserved")
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

/// A connection finds its origin's entry by the place it keeps (`HTTP2ClientConnection.poolEntry`,
/// the fast twin); the origin scan is the slow one. Both must name the same entry.
final class HTTP2ClientPoolEntryTests: XCTestCase {
    private let client = HTTPClient(http2: HTTP2ClientSettings(mode: .priorKnowledge))

    func testAnEntrysPlaceNamesTheEntryItsOriginFinds() throws {
        let pool = try XCTUnwrap(client.http2)
        let origins = [
            ConnectionPool.Origin(secure: false, host: "127.0.0.1", port: 8080),
            ConnectionPool.Origin(secure: true, host: "127.0.0.1", port: 8080),
            ConnectionPool.Origin(secure: false, host: "localhost", port: 8080),
            ConnectionPool.Origin(secure: false, host: "127.0.0.1", port: 8081),
        ]
        let places = origins.map { pool.entryIndex(of: $0) }
        XCTAssertEqual(Set(places).count, origins.count)
        for (origin, place) in zip(origins, places) {
            XCTAssertEqual(pool.origin(ofEntry: place), origin)
            XCTAssertEqual(pool.entryIndex(of: origin), place)
        }
    }
}

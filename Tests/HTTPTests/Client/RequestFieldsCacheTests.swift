// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

final class RequestFieldsCacheTests: XCTestCase {
    let cache = RequestFieldsCache<[UInt8]>()

    func request(_ url: String, _ headers: HTTPHeaders = ["Accept": "image/png"]) -> (HTTPClientRequest, ConnectionPool.Origin) {
        let request = HTTPClientRequest(url: url, headers: headers)!
        return (request, ConnectionPool.Origin(secure: request.isSecure, host: request.host, port: request.port))
    }

    func testRequestsToOneOriginWithTheSameFieldsShareTheirEncoding() {
        let (first, origin) = request("http://127.0.0.1:8081/u/1?v=4")
        let (second, _) = request("http://127.0.0.1:8081/u/2?v=4")
        XCTAssertEqual(cache.fields(for: first, origin: origin), first.encodedFields)
        XCTAssertEqual(String(decoding: second.encodedHead(fields: cache.fields(for: second, origin: origin)), as: UTF8.self),
                       "GET /u/2?v=4 HTTP/1.1\r\nHost: 127.0.0.1:8081\r\nAccept: image/png\r\nConnection: keep-alive\r\n\r\n")
    }

    func testAnotherOriginOrOtherFieldsGetTheirOwnEncoding() {
        let (a, originA) = request("http://127.0.0.1:8081/x")
        let (b, originB) = request("http://127.0.0.1:8082/x")
        let (c, originC) = request("http://127.0.0.1:8081/x", ["Accept": "text/plain"])
        XCTAssertEqual(cache.fields(for: a, origin: originA), a.encodedFields)
        XCTAssertEqual(cache.fields(for: b, origin: originB), b.encodedFields)
        XCTAssertEqual(cache.fields(for: c, origin: originC), c.encodedFields)
        XCTAssertNotEqual(a.encodedFields, b.encodedFields)
        XCTAssertNotEqual(a.encodedFields, c.encodedFields)
    }

    func testMorePairsThanItKeepsStillGiveEachItsOwnFields() {
        let pairs = (0..<(RequestFieldsCache<[UInt8]>.capacity * 2 + 1)).map { request("http://127.0.0.1:\(8000 + $0)/", ["X-N": String($0)]) }
        for _ in 0..<2 {
            for (request, origin) in pairs { XCTAssertEqual(cache.fields(for: request, origin: origin), request.encodedFields) }
        }
    }
}

/// An exchange finds its origin by its request's parts (`ConnectionPool.Origin.Parts`), without an
/// `Origin` made for it: the parts match exactly the origins the request's own `Origin` equals.
final class OriginPartsTests: XCTestCase {
    private let urls = [
        "http://127.0.0.1:8081/a", "http://127.0.0.1:8082/a", "https://127.0.0.1:8081/a", "http://localhost:8081/a",
        "http://127.0.0.1/a", "http://127.0.0.1:80/b", "https://avatars.example.com/u/1?v=4", "https://avatars.example.com:443/u/2",
        "https://avatars.example.org/u/1", "http://user@127.0.0.1:8081/a", "http://[::1]:8081/a",
    ]

    private func origin(_ request: HTTPClientRequest) -> ConnectionPool.Origin {
        ConnectionPool.Origin(secure: request.isSecure, host: request.host, port: request.port)
    }

    func testARequestsPartsMatchTheOriginsItsOwnOriginEquals() {
        let requests = urls.map { HTTPClientRequest(url: $0)! }
        for request in requests {
            let parts = ConnectionPool.Origin.Parts(request)
            XCTAssertEqual(parts.origin, origin(request))
            for other in requests {
                XCTAssertEqual(origin(other).matches(parts), origin(other) == origin(request), "\(request.url) against \(other.url)")
            }
        }
    }

    func testTheCacheFindsARequestsFieldsByItsPartsAsByItsOrigin() {
        let byParts = RequestFieldsCache<[UInt8]>()
        let byOrigin = RequestFieldsCache<[UInt8]>()
        for _ in 0..<2 {
            for url in urls {
                let request = HTTPClientRequest(url: url, headers: ["Accept": "image/png"])!
                let parts = ConnectionPool.Origin.Parts(request)
                XCTAssertEqual(byParts.fields(for: request, parts: parts), byOrigin.fields(for: request, origin: origin(request)), url)
                XCTAssertEqual(byParts.fields(for: request, parts: parts), request.encodedFields, url)
            }
        }
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import HTTP
import Tracing

/// `ServerAddress.Memo` (an origin's answer remembered) against its slow twin, `ServerAddress.of`.
final class ServerAddressMemoTests: XCTestCase {
    func testTheMemoAnswersAsServerAddressOfForEveryURLInTurn() {
        let urls = [
            "http://api.demo.invalid/users?per_page=30", "http://api.demo.invalid/users/ada1",
            "https://avatars.demo.invalid/u/1?v=4", "https://avatars.demo.invalid/u/2#frag", "https://avatars.demo.invalid",
            "https://avatars.demo.invalid:8443/u/1", "https://avatars.demo.invalid:8443", "http://avatars.demo.invalid/u/1",
            "http://api.demo.invalid:80/users", "http://api.demo.invalidx/users", "http://api.demo.invalid.x/users",
            "HTTP://API.demo.invalid/users", "http://user:pw@api.demo.invalid/users", "http://[::1]:8080/users",
            "http://127.0.0.1:29841/users?per_page=1", "http://127.0.0.1:29842/users", "http://127.0.0.1/users",
            "http://api.demo.invalid?q=1", "http://api.demo.invalid/users",
        ].compactMap { URL(string: $0) }
        XCTAssertEqual(urls.count, 19)
        let memo = ServerAddress.Memo(capacity: 3)
        // Twice round: the second time most origins are remembered, or were pushed out and come back.
        for url in urls + urls {
            let fast = memo.of(url), slow = ServerAddress.of(url)
            XCTAssertEqual(fast?.host, slow?.host, url.absoluteString)
            XCTAssertEqual(fast?.port, slow?.port, url.absoluteString)
        }
    }

    /// `shared`'s fast path (the origin found by its bytes, moved to the front) against `ServerAddress.of`:
    /// origins taking turns, pushed out and coming back.
    func testSharedAttributesNameTheHostAndPortServerAddressOfAnswersForEveryURLInTurn() {
        let urls = [
            "http://127.0.0.1:29841/users?per_page=1", "http://127.0.0.1:29842/u/1", "http://127.0.0.1:29842/u/2", "http://127.0.0.1:29841/users",
            "https://avatars.demo.invalid/u/1?v=4", "https://avatars.demo.invalid:8443/u/1", "http://127.0.0.1:2984/u", "http://127.0.0.1:29842",
            "http://127.0.0.1:29842?x", "http://127.0.0.1:29842#f", "http://127.0.0.1:298421/u", "http://user:pw@api.demo.invalid/users",
        ].compactMap { URL(string: $0) }
        let memo = ServerAddress.Memo(capacity: 3)
        for url in urls + urls.reversed() + urls {
            let shared = memo.shared(for: url, absoluteString: url.absoluteString, key: "k") { host, port in
                SharedSpanAttributes(["server.address": .string(host), "server.port": .int64(Int64(port))])
            }
            let slow = ServerAddress.of(url)
            XCTAssertEqual(shared?.list["server.address"], slow.map { SpanAttribute.string($0.host) }, url.absoluteString)
            XCTAssertEqual(shared?.list["server.port"], slow.map { SpanAttribute.int64(Int64($0.port)) }, url.absoluteString)
        }
    }

    func testSharedAttributesAreMadeOncePerOriginAndKeyOfThatOriginsHostAndPort() throws {
        let memo = ServerAddress.Memo()
        var made = 0
        func shared(_ url: String, _ key: String) -> SharedSpanAttributes? {
            let url = URL(string: url)!
            return memo.shared(for: url, absoluteString: url.absoluteString, key: key) { host, port in
                made += 1
                return SharedSpanAttributes(["server.address": .string(host), "server.port": .int64(Int64(port))])
            }
        }
        let first = try XCTUnwrap(shared("http://127.0.0.1:29841/users?per_page=1", "list"))
        XCTAssertTrue(shared("http://127.0.0.1:29841/users/ada", "list") === first)
        XCTAssertFalse(shared("http://127.0.0.1:29841/users/ada", "profile") === first)
        let other = try XCTUnwrap(shared("https://avatars.demo.invalid/u/1", "list"))
        XCTAssertFalse(other === first)
        XCTAssertEqual(made, 3)
        XCTAssertEqual(first.list, ["server.address": .string("127.0.0.1"), "server.port": .int64(29841)])
        XCTAssertEqual(other.list, ["server.address": .string("avatars.demo.invalid"), "server.port": .int64(443)])
    }

    func testSharedAttributesOfOneKeyAreKeptApartByVariant() throws {
        let memo = ServerAddress.Memo()
        var made = 0
        func shared(_ variant: Int) -> SharedSpanAttributes? {
            let url = URL(string: "http://127.0.0.1:29842/users/ada")!
            return memo.shared(for: url, absoluteString: url.absoluteString, key: "profile", variant: variant) { host, _ in
                made += 1
                return SharedSpanAttributes(["server.address": .string(host), "http.response.status_code": .int64(Int64(variant))])
            }
        }
        let ok = try XCTUnwrap(shared(200))
        let missing = try XCTUnwrap(shared(404))
        XCTAssertFalse(ok === missing)
        XCTAssertTrue(shared(200) === ok)
        XCTAssertTrue(shared(404) === missing)
        XCTAssertEqual(made, 2)
        XCTAssertEqual(missing.list["http.response.status_code"], .int64(404))
    }

    func testVariantsBeyondTheMemosRoomAreMadePerCallNotKept() {
        let memo = ServerAddress.Memo()
        var made = 0
        let url = URL(string: "http://127.0.0.1:29843/")!
        for round in 0..<2 {
            for variant in 0...ServerAddress.Memo.variantsPerOrigin {
                _ = memo.shared(for: url, absoluteString: url.absoluteString, key: "list", variant: variant) { _, _ in
                    made += 1
                    return SharedSpanAttributes([:])
                }
            }
            XCTAssertEqual(made, (ServerAddress.Memo.variantsPerOrigin + 1) * (round + 1) - ServerAddress.Memo.variantsPerOrigin * round, "round \(round)")
        }
    }
}

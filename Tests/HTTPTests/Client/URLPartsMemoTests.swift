// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import HTTP

final class URLPartsMemoTests: XCTestCase {
    private let strings = [
        "http://127.0.0.1:8081/u/1?v=4", "http://127.0.0.1:8081/u/2?v=4", "http://127.0.0.1:8081/u/30?v=4",
        "https://avatars.example.com/u/9?s=40&v=4", "http://h", "http://h/p#top", "http://h:8080/users?per_page=30",
    ]

    /// The memo's parts (its fast path) against the URL read anew (its slow twin), asked twice in
    /// turn, in a memo of two slots where URLs keep taking each other's slot.
    func testTheKeptPartsAreTheURLsOwnWhenSlotsAreSharedAndTaken() throws {
        let memo = URLPartsMemo(slotBits: 1)
        for _ in 0..<2 {
            for string in strings {
                let url = try XCTUnwrap(URL(string: string), string)
                let parts = memo.parts(reading: url)
                XCTAssertTrue(parts.scanned, string)
                XCTAssertEqual(parts, URLParts(reading: url), string)
            }
        }
    }

    /// A URL kept is found again from another `URL` of the same string (another storage).
    func testAURLIsFoundAgainFromAnEqualStringInAnotherStorage() throws {
        let memo = URLPartsMemo(slotBits: 7)
        let first = try XCTUnwrap(URL(string: "http://127.0.0.1:8081/u/" + String(7) + "?v=4"))
        let again = try XCTUnwrap(URL(string: "http://127.0.0.1:8081/u/" + String(3 + 4) + "?v=4"))
        XCTAssertEqual(memo.parts(reading: first), memo.parts(reading: again))
        XCTAssertEqual(memo.parts(reading: again).host, "127.0.0.1")
    }

    /// A page's avatar URLs, which differ in a byte or two near their end, spread over the slots:
    /// each two that share a slot cost a scan a request.
    func testAPagesAvatarURLsTakeAlmostAllDistinctSlots() {
        var slots = Set<UInt64>()
        for id in 1...30 {
            var string = "http://127.0.0.1:36803/u/\(id)?v=4"
            slots.insert(string.withUTF8 { URLPartsMemo.hash(UnsafeRawBufferPointer($0)) >> 55 })
        }
        XCTAssertGreaterThanOrEqual(slots.count, 28)
    }

    /// A URL `URLParts` declines is answered as not scanned, and Foundation then answers the request.
    func testADeclinedURLIsAnsweredAsNotScanned() throws {
        let memo = URLPartsMemo(slotBits: 7)
        let url = try XCTUnwrap(URL(string: "http://[::1]:8080/p?x=1"))
        XCTAssertFalse(memo.parts(reading: url).scanned)
        XCTAssertFalse(memo.parts(reading: url).scanned)
    }
}

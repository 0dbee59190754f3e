// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import XCTest

/// NetCore's two-way set-associative slots, the storage of `URLPartsMemo` and Domain's `ParsedURLs`,
/// with strings for entries (the empty string vacant).
final class TwoWayMemoTests: XCTestCase {
    private func set(of key: String, in memo: TwoWayMemo<String>) -> Int {
        var key = key
        return key.withUTF8 { memo.set(of: UnsafeRawBufferPointer($0)) }
    }

    private func find(_ key: String, in memo: TwoWayMemo<String>) -> String? {
        memo.first(inSet: set(of: key, in: memo)) { $0 == key ? $0 : nil }
    }

    private func keep(_ key: String, in memo: inout TwoWayMemo<String>) {
        memo.keep(key, inSet: set(of: key, in: memo))
    }

    func testAKeptEntryIsFoundByItsKey() {
        var memo = TwoWayMemo(setBits: 4, vacant: "")
        keep("http://h/a", in: &memo)
        XCTAssertEqual(find("http://h/a", in: memo), "http://h/a")
    }

    func testAKeyNeverKeptIsNotFound() {
        var memo = TwoWayMemo(setBits: 4, vacant: "")
        keep("http://h/a", in: &memo)
        XCTAssertNil(find("http://h/b", in: memo))
    }

    func testASetKeepsItsTwoLatestEntriesAndDropsTheOlderOne() {
        var memo = TwoWayMemo(setBits: 0, vacant: "")
        for key in ["a", "b", "c"] { keep(key, in: &memo) }
        XCTAssertNil(find("a", in: memo))
        XCTAssertEqual(find("b", in: memo), "b")
        XCTAssertEqual(find("c", in: memo), "c")
    }

    func testFindingAnEntryDoesNotSpareItFromReplacement() {
        var memo = TwoWayMemo(setBits: 0, vacant: "")
        keep("a", in: &memo)
        keep("b", in: &memo)
        XCTAssertEqual(find("a", in: memo), "a")
        keep("c", in: &memo)
        XCTAssertNil(find("a", in: memo))
    }

    func testOneSetTakesEveryKey() {
        let memo = TwoWayMemo(setBits: 0, vacant: "")
        XCTAssertEqual(Set(["a", "http://h/a", String(repeating: "x", count: 100)].map { set(of: $0, in: memo) }), [0])
    }

    func testTheCapacityIsTwoEntriesASetAndAllStartVacant() {
        let memo = TwoWayMemo(setBits: 3, vacant: "")
        XCTAssertEqual(memo.capacity, 16)
        XCTAssertEqual(memo.count { !$0.isEmpty }, 0)
    }
}

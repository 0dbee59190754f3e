// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import StreamServiceConcurrency
import XCTest
import Domain
@testable import DemoUpstream

final class BoundedMemoTests: XCTestCase {
    func memo(capacityBytes: Int) -> BoundedMemo<String, [UInt8]> {
        BoundedMemo(capacityBytes: capacityBytes) { _, value in value.count }
    }

    func testAValueIsMadeOncePerKey() {
        let memo = memo(capacityBytes: 100)
        let made = Locked(0)
        for _ in 0..<3 {
            XCTAssertEqual(memo.value(for: "a") { made.withLock { $0 += 1 }; return [1, 2] }, [1, 2])
        }
        XCTAssertEqual(made.withLock { $0 }, 1)
        XCTAssertEqual(memo.bytes, 2)
    }

    func testStartingOverWhenFullStillAnswersEachKeyWithItsOwnValue() {
        let memo = memo(capacityBytes: 5)
        for key in ["a", "b", "c", "a", "d", "b"] {
            XCTAssertEqual(memo.value(for: key) { Array(key.utf8) + [0, 0] }, Array(key.utf8) + [0, 0], key)
        }
        XCTAssertLessThanOrEqual(memo.bytes, 5)
        XCTAssertEqual(memo.count, 1, "3 bytes each: one entry fits in 5")
    }

    func testAValueLargerThanTheBudgetIsAnsweredButNotKept() {
        let memo = memo(capacityBytes: 4)
        _ = memo.value(for: "small") { [1] }
        XCTAssertEqual(memo.value(for: "large") { [UInt8](repeating: 7, count: 10) }, [UInt8](repeating: 7, count: 10))
        XCTAssertEqual(memo.count, 1, "the small entry stays; the large one is not stored")
    }

    func testNothingIsKeptWhenMakeFindsNothing() {
        let memo = memo(capacityBytes: 100)
        XCTAssertNil(memo.value(for: "missing") { nil })
        XCTAssertEqual(memo.value(for: "missing") { [9] }, [9])
    }

    func testConcurrentLookupsWhileItStartsOverEachGetTheirKeysValue() {
        let memo = memo(capacityBytes: 8)
        let wrong = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<500 {
                let key = String((thread + round) % 10)
                let value = memo.value(for: key) { Array(key.utf8) + [UInt8(ascii: "!")] }
                if value != Array(key.utf8) + [UInt8(ascii: "!")] { wrong.withLock { $0 += 1 } }
            }
        }
        XCTAssertEqual(wrong.withLock { $0 }, 0)
        XCTAssertLessThanOrEqual(memo.bytes, 8)
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import XCTest

/// `DigestMemo` against its slow twin, `MessageDigest.hex` of every byte string.
final class DigestMemoTests: XCTestCase {
    private let image = Array("an avatar's PNG bytes".utf8)

    func testBytesSeenBeforeUnderTheirKeyHaveTheirDigest() {
        let memo = DigestMemo(.sha256, capacity: 8, maximumBytes: 1 << 20)
        XCTAssertEqual(memo.hex(of: image, key: 1), MessageDigest.sha256.hex(image))
        XCTAssertEqual(memo.hex(of: Array(image), key: 1), MessageDigest.sha256.hex(image), "kept, for equal bytes in another array")
        XCTAssertEqual(memo.count, 1)
    }

    func testChangedBytesOfTheSameLengthAreDigestedAnew() {
        let memo = DigestMemo(.sha256, capacity: 8, maximumBytes: 1 << 20)
        _ = memo.hex(of: image, key: 1)
        var changed = image
        changed[changed.count - 1] ^= 1
        XCTAssertEqual(memo.hex(of: changed, key: 1), MessageDigest.sha256.hex(changed))
    }

    func testEveryAnswerOverManyKeysAndByteStringsIsTheirDigest() {
        let memo = DigestMemo(.sha256, capacity: 6, maximumBytes: 4_000)
        var generator = SystemRandomNumberGenerator()
        let strings = (0..<12).map { size in (0..<size * 37).map { _ in UInt8.random(in: 0...3, using: &generator) } }
        for _ in 0..<2_000 {
            let bytes = strings.randomElement(using: &generator)!
            XCTAssertEqual(memo.hex(of: bytes, key: Int.random(in: 0..<9, using: &generator)), MessageDigest.sha256.hex(bytes))
        }
    }

    func testTheMemoStartsOverPastItsCapacity() {
        let memo = DigestMemo(.sha256, capacity: 2, maximumBytes: 1 << 20)
        for key in 1...3 { _ = memo.hex(of: image, key: key) }
        XCTAssertEqual(memo.count, 1)
    }

    func testBytesOverTheLimitAreNotKept() {
        let memo = DigestMemo(.sha256, capacity: 8, maximumBytes: image.count - 1)
        XCTAssertEqual(memo.hex(of: image, key: 1), MessageDigest.sha256.hex(image))
        XCTAssertEqual(memo.count, 0)
    }

    func testTheMemosDigestIsItsOwn() {
        let memo = DigestMemo(.sha1, capacity: 8, maximumBytes: 1 << 20)
        XCTAssertEqual(memo.hex(of: image, key: 1), MessageDigest.sha1.hex(image))
    }
}

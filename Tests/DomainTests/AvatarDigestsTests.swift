// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import XCTest
@testable import Domain

/// `AvatarDigests` against its slow twin, `MessageDigest.sha256.hex` of every image.
final class AvatarDigestsTests: XCTestCase {
    private let image = Array("an avatar's PNG bytes".utf8)

    func testAnImageSeenBeforeHasTheDigestOfItsBytes() {
        let digests = AvatarDigests(capacity: 8, maximumBytes: 1 << 20)
        XCTAssertEqual(digests.sha256(of: image, user: 1), MessageDigest.sha256.hex(image))
        XCTAssertEqual(digests.sha256(of: Array(image), user: 1), MessageDigest.sha256.hex(image), "kept, for equal bytes in another array")
        XCTAssertEqual(digests.count, 1)
    }

    func testChangedBytesOfTheSameLengthAreHashedAnew() {
        let digests = AvatarDigests(capacity: 8, maximumBytes: 1 << 20)
        _ = digests.sha256(of: image, user: 1)
        var changed = image
        changed[changed.count - 1] ^= 1
        XCTAssertEqual(digests.sha256(of: changed, user: 1), MessageDigest.sha256.hex(changed))
    }

    func testEveryAnswerOverManyUsersAndImagesIsTheImagesDigest() {
        let digests = AvatarDigests(capacity: 6, maximumBytes: 4_000)
        var generator = SystemRandomNumberGenerator()
        let images = (0..<12).map { size in (0..<size * 37).map { _ in UInt8.random(in: 0...3, using: &generator) } }
        for _ in 0..<2_000 {
            let bytes = images.randomElement(using: &generator)!
            XCTAssertEqual(digests.sha256(of: bytes, user: Int.random(in: 0..<9, using: &generator)), MessageDigest.sha256.hex(bytes))
        }
    }

    func testTheMemoStartsOverPastItsCapacity() {
        let digests = AvatarDigests(capacity: 2, maximumBytes: 1 << 20)
        for user in 1...3 { _ = digests.sha256(of: image, user: user) }
        XCTAssertEqual(digests.count, 1)
    }

    func testAnImageOverTheByteLimitIsNotKept() {
        let digests = AvatarDigests(capacity: 8, maximumBytes: image.count - 1)
        XCTAssertEqual(digests.sha256(of: image, user: 1), MessageDigest.sha256.hex(image))
        XCTAssertEqual(digests.count, 0)
    }
}

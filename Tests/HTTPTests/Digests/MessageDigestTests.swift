// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import XCTest

/// `MessageDigest` (a thread's context re-initialised per digest) as lower-case hex, checked
/// against the FIPS 180-2 test vectors and OpenSSL's one-shot functions.
final class MessageDigestTests: XCTestCase {
    /// FIPS 180-2 appendix B: "abc", the 448-bit two-block message, and a million "a"s.
    static let twoBlocks = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
    static let millionAs = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)

    func testTheEmptyInputsSHA256() {
        XCTAssertEqual(MessageDigest.sha256.hex([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    func testAbcsSHA256() {
        XCTAssertEqual(MessageDigest.sha256.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    func testTheTwoBlockMessagesSHA256() {
        XCTAssertEqual(MessageDigest.sha256.hex(Self.twoBlocks), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func testAMillionAsSHA256() {
        XCTAssertEqual(MessageDigest.sha256.hex(Self.millionAs), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testTheEmptyInputsSHA1() {
        XCTAssertEqual(MessageDigest.sha1.hex([]), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    func testAbcsSHA1() {
        XCTAssertEqual(MessageDigest.sha1.hex(Array("abc".utf8)), "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    func testTheTwoBlockMessagesSHA1() {
        XCTAssertEqual(MessageDigest.sha1.hex(Self.twoBlocks), "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }

    func testAMillionAsSHA1() {
        XCTAssertEqual(MessageDigest.sha1.hex(Self.millionAs), "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    /// One thread's contexts serve both algorithms in turn, each digest starting afresh.
    func testDigestsOfBothAlgorithmsInTurnOnOneThreadAreEachRight() {
        for _ in 0..<3 {
            XCTAssertEqual(MessageDigest.sha1.hex(Array("abc".utf8)), "a9993e364706816aba3e25717850c26c9cd0d89d")
            XCTAssertEqual(MessageDigest.sha256.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        }
    }

    /// Digests on many threads at once each use a context of their own.
    func testConcurrentDigestsAreEachRight() {
        let messages = (0..<64).map { Array("message \($0)".utf8) }
        let references = messages.map { MessageDigest.sha256.hex($0) }
        DispatchQueue.concurrentPerform(iterations: 64 * 8) { index in
            XCTAssertEqual(MessageDigest.sha256.hex(messages[index % 64]), references[index % 64])
        }
    }
}

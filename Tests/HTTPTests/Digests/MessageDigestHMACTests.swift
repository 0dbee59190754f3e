// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import XCTest

/// `MessageDigest.HMAC.mac` (the thread's keyed context reset and reused) against RFC 4231's
/// vectors and OpenSSL's one-shot `HMAC()`.
final class MessageDigestHMACTests: XCTestCase {
    /// RFC 4231 §4: test cases 1, 2, 3, 4, 6 and 7 (5 truncates its output), key, data, HMAC-SHA256.
    static let rfc4231: [(key: [UInt8], data: [UInt8], mac: String)] = [
        ([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        (Array(1...25), [UInt8](repeating: 0xcd, count: 50),
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        ([UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        ([UInt8](repeating: 0xaa, count: 131),
         Array("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".utf8),
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    func testTheMACsAreRFC4231s() throws {
        for (number, vector) in Self.rfc4231.enumerated() {
            let hmac = try XCTUnwrap(MessageDigest.HMAC(key: vector.key, digest: .sha256))
            XCTAssertEqual(hex(Self.mac(hmac, vector.data)), vector.mac, "vector \(number)")
            XCTAssertEqual(hex(Self.mac(hmac, vector.data)), vector.mac, "vector \(number), reused")
        }
    }

    /// RFC 2202 test case 2, HMAC-SHA1: the other digest keys the same way.
    func testAnHMACSHA1IsRFC2202s() throws {
        let hmac = try XCTUnwrap(MessageDigest.HMAC(key: Array("Jefe".utf8), digest: .sha1))
        XCTAssertEqual(hex(Self.mac(hmac, Array("what do ya want for nothing?".utf8))), "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
    }

    /// Messages of every length around SHA-256's 64-byte block, each twice (a reused context),
    /// under a short key and one longer than a block (which HMAC hashes first).
    func testAReusedContextAgreesWithTheOneShotHMAC() throws {
        for key in [Array("k".utf8), [UInt8](repeating: 0xAB, count: 131)] {
            let hmac = try XCTUnwrap(MessageDigest.HMAC(key: key))
            for length in 0...130 {
                let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
                let reference = try XCTUnwrap(message.withUnsafeBufferPointer { hmac.oneShot($0) })
                XCTAssertEqual(Self.mac(hmac, message), reference, "length \(length), first use")
                XCTAssertEqual(Self.mac(hmac, message), reference, "length \(length), reused")
            }
        }
    }

    /// More keys used in turn on one thread than it keeps contexts for: each MAC is its own key's,
    /// whether its context was kept, pushed out and made again, or made for a key just created.
    func testKeysUsedInTurnOnOneThreadEachGiveTheirOwnMAC() throws {
        let message = Array("one message, many keys".utf8)
        var hmacs: [MessageDigest.HMAC] = []
        for round in 0..<3 {
            hmacs.append(try XCTUnwrap(MessageDigest.HMAC(key: Array("key \(round)".utf8))))
            for number in 0..<7 {
                let hmac = number < hmacs.count ? hmacs[number] : try XCTUnwrap(MessageDigest.HMAC(key: Array("short-lived \(number)".utf8)))
                let reference = try XCTUnwrap(message.withUnsafeBufferPointer { hmac.oneShot($0) })
                XCTAssertEqual(Self.mac(hmac, message), reference, "round \(round), key \(number)")
            }
        }
    }

    /// Verifications on many threads at once each get a context of their own.
    func testConcurrentMACsAreEachRight() throws {
        let hmac = try XCTUnwrap(MessageDigest.HMAC(key: Array("a shared secret of some length".utf8)))
        let messages = (0..<64).map { Array("message \($0)".utf8) }
        let references = try messages.map { message in try XCTUnwrap(message.withUnsafeBufferPointer { hmac.oneShot($0) }) }
        DispatchQueue.concurrentPerform(iterations: 64 * 8) { index in
            XCTAssertEqual(Self.mac(hmac, messages[index % 64]), references[index % 64])
        }
    }

    private static func mac(_ hmac: MessageDigest.HMAC, _ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: hmac.byteCount)
        let done = message.withUnsafeBufferPointer { input in out.withUnsafeMutableBufferPointer { hmac.mac(input, into: $0) } }
        XCTAssertTrue(done)
        return out
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}

import XCTest
@testable import Server

/// `KeyedHMAC.mac` (a keyed context reset and reused) against OpenSSL's one-shot `HMAC()`.
final class KeyedHMACTests: XCTestCase {
    /// RFC 4231 test case 2: key "Jefe", "what do ya want for nothing?".
    func testTheMACIsRFC4231s() throws {
        let hmac = try XCTUnwrap(KeyedHMAC(key: Array("Jefe".utf8)))
        XCTAssertEqual(hex(Self.mac(hmac, Array("what do ya want for nothing?".utf8))),
                       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    /// Messages of every length around SHA-256's 64-byte block, each twice (a reused context),
    /// under a short key and one longer than a block (which HMAC hashes first).
    func testAReusedContextAgreesWithTheOneShotHMAC() throws {
        for key in [Array("k".utf8), [UInt8](repeating: 0xAB, count: 131)] {
            let hmac = try XCTUnwrap(KeyedHMAC(key: key))
            for length in 0...130 {
                let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
                let reference = try XCTUnwrap(message.withUnsafeBufferPointer { hmac.oneShot($0) })
                XCTAssertEqual(Self.mac(hmac, message), reference, "length \(length), first use")
                XCTAssertEqual(Self.mac(hmac, message), reference, "length \(length), reused")
            }
        }
    }

    /// Verifications on many threads at once each get a context of their own.
    func testConcurrentMACsAreEachRight() throws {
        let hmac = try XCTUnwrap(KeyedHMAC(key: Array("a shared secret of some length".utf8)))
        let messages = (0..<64).map { Array("message \($0)".utf8) }
        let references = try messages.map { message in try XCTUnwrap(message.withUnsafeBufferPointer { hmac.oneShot($0) }) }
        DispatchQueue.concurrentPerform(iterations: 64 * 8) { index in
            XCTAssertEqual(Self.mac(hmac, messages[index % 64]), references[index % 64])
        }
    }

    private static func mac(_ hmac: KeyedHMAC, _ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: KeyedHMAC.outputBytes)
        let done = message.withUnsafeBufferPointer { input in out.withUnsafeMutableBufferPointer { hmac.mac(input, into: $0) } }
        XCTAssertTrue(done)
        return out
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}

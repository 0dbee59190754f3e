import XCTest
import Domain

/// SHA-256 as lower-case hex, checked against the FIPS 180-2 test vectors.
final class SHA256DigestTests: XCTestCase {
    func testTheEmptyInputsDigest() {
        XCTAssertEqual(SHA256Digest.hex([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    func testAbcsDigest() {
        XCTAssertEqual(SHA256Digest.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}

import XCTest
@testable import Server

/// The verifier's checks without a server: base64url strictness, claims and the leeway.
final class JWTVerifierTests: XCTestCase {
    private let verifier = JWTVerifier(key: try! JWTKey(secret: String(repeating: "k", count: 32)), audience: "svc", issuer: "id", leeway: .seconds(30))

    func testBase64URLRefusesPaddingAndTheStandardAlphabet() {
        XCTAssertEqual(Base64URL.decode("eyJhIjoxfQ").map { String(decoding: $0, as: UTF8.self) }, #"{"a":1}"#)
        XCTAssertNil(Base64URL.decode("eyJhIjoxfQ=="))
        XCTAssertNil(Base64URL.decode("a+b/"))
        XCTAssertNil(Base64URL.decode("a"), "one character is never a whole byte")
    }

    func testExpiryAndNotBeforeAllowTheLeewayAndNoMore() {
        let claims = JWTClaims(audience: ["svc"], expiresAt: 1000, notBefore: 500)
        XCTAssertNil(verifier.check(claims.issued(by: "id"), now: 1029))
        XCTAssertEqual(verifier.check(claims.issued(by: "id"), now: 1030), .expired)
        XCTAssertNil(verifier.check(claims.issued(by: "id"), now: 471))
        XCTAssertEqual(verifier.check(claims.issued(by: "id"), now: 469), .notYetValid)
    }

    func testAudienceAndIssuerMustMatchWhenConfigured() {
        XCTAssertEqual(verifier.check(JWTClaims(issuer: "id", audience: ["other"]), now: 0), .audience(expected: "svc"))
        XCTAssertEqual(verifier.check(JWTClaims(issuer: "evil", audience: ["svc"]), now: 0), .issuer(expected: "id"))
        XCTAssertNil(JWTVerifier(key: verifier.key).check(JWTClaims(), now: 0), "nothing configured, nothing checked")
    }

    func testAnOversizedTokenIsMalformedBeforeAnyDecoding() {
        let huge = Substring(String(repeating: "a", count: JWTVerifier.maximumTokenBytes + 1))
        guard case .failure(.malformed) = verifier.verify(huge, now: 0) else { return XCTFail("accepted") }
    }

    func testTheDERFormOfAnECDSASignatureCarriesRAndS() {
        let raw = [UInt8](repeating: 1, count: 32) + [UInt8](repeating: 2, count: 32)
        let der = JWTKey.derECDSASignature(rawRS: raw)
        XCTAssertEqual(der?.prefix(4), [0x30, 0x44, 0x02, 0x20])
        XCTAssertNil(JWTKey.derECDSASignature(rawRS: Array(raw.prefix(63))))
    }
}

private extension JWTClaims {
    func issued(by issuer: String) -> JWTClaims {
        var claims = self
        claims.issuer = issuer
        return claims
    }
}

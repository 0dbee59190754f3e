// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import StreamsTesting
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

    func testBase64URLDecodesWhatFoundationEncodesAtEveryLength() {
        var random = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let text = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            XCTAssertEqual(Base64URL.decode(Substring(text)), bytes, text)
            XCTAssertEqual(Base64URL.encode(bytes), text)
        }
    }

    /// The headers the verifier skips reading are ones the full reading accepts for the key's
    /// algorithm, and refuses for any other.
    func testTheKnownHeadersAreOnesTheFullReadingAccepts() throws {
        for algorithm in [JWTAlgorithm.hs256, .rs256, .es256] {
            for json in JWTVerifier.usualHeaders(for: algorithm) {
                let header = try XCTUnwrap(Base64URL.decode(Substring(Base64URL.encode(Array(json.utf8)))).flatMap { bytes in
                    bytes.withUnsafeBufferPointer { JWTVerifier.header($0) }
                }, json)
                XCTAssertEqual(header.alg, algorithm.rawValue, json)
                XCTAssertNil(header.crit, json)
            }
        }
        XCTAssertEqual(verifier.knownHeaders.count, 3)
        XCTAssertNil(verifier.headerRefusal(JWTHeader(alg: "HS256")))
        XCTAssertEqual(verifier.headerRefusal(JWTHeader(alg: "RS256")), .algorithm("RS256", expected: .hs256))
    }

    func testATokenFromPyJWTCarriesAKnownHeader() throws {
        let token = try TokenMint().token(["sub": "bob"], expiresIn: 60)
        XCTAssertTrue(verifier.knownHeaders.contains(Array(token.prefix { $0 != "." }.utf8)), token)
    }

    /// A header of another algorithm's known form, on a token otherwise well formed, is read
    /// the full way and refused for its algorithm, as any other header would be.
    func testAKnownHeaderOfAnotherAlgorithmIsRefusedForItsAlgorithm() {
        let header = Base64URL.encode(Array(JWTVerifier.usualHeaders(for: .rs256)[0].utf8))
        let payload = Base64URL.encode(Array(#"{"sub":"x"}"#.utf8))
        guard case .failure(let refusal) = verifier.verify(Substring("\(header).\(payload).AAAA"), now: 0) else {
            return XCTFail("a token with an RS256 header verified against an HS256 key")
        }
        XCTAssertEqual(refusal, .algorithm("RS256", expected: .hs256))
    }

    /// The table decoder and its plain twin over seeded text, mostly the alphabet, sometimes a
    /// byte outside it or a non-canonical last character: the same bytes or the same refusal.
    func testBase64URLTableDecoderAgreesWithTheCharacterByCharacterTwin() {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        let strangers: [UInt8] = [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "."), 0x20, 0x80, 0xFF, 0]
        var random = SeededRandom(seed: 0x5EED)
        var refused = 0
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0..<40, using: &random)).map { _ in
                Int.random(in: 0..<60, using: &random) == 0 ? strangers.randomElement(using: &random)! : alphabet.randomElement(using: &random)!
            }
            let fast = text.withUnsafeBufferPointer { Base64URL.decode($0) }
            XCTAssertEqual(fast, text.withUnsafeBufferPointer { Base64URL.decodeBySextets($0) }, String(decoding: text, as: UTF8.self))
            if fast == nil { refused += 1 }
        }
        XCTAssertGreaterThan(refused, 500, "the seeded texts include refusals of each kind")
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

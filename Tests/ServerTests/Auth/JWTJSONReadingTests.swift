// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import XCTest
@testable import Server

/// `JWTHeader.read` and `JWTClaims.read` (the fast readers) against `JSONDecoder` (their plain
/// twins): where a reader answers, the decoder answers the same; where it declines (nil), the
/// verifier decodes and the decoder's answer stands.
final class JWTJSONReadingTests: XCTestCase {
    /// Payloads the fast reader must read itself (a token as PyJWT, jose or jsonwebtoken write one).
    private let plainClaims = [
        #"{"sub":"subscriber-7","exp":1764277200,"streamservice":{"subscribe":["*"]}}"#,
        #"{"sub": "bob", "iss": "id", "aud": "svc", "exp": 2000000000, "nbf": 1.5, "iat": 1, "jti": "x"}"#,
        #"{"aud":["a","b"],"streamservice":{"subscribe":["users","profile"],"metrics":true,"other":{"deep":[1,2,{"x":null}]}}}"#,
        #"{"sub":"caf\u00e9 \"quoted\" \\ /","exp":1e9,"nbf":-0.25,"extra":[true,false,null,"s",{}]}"#,
        #"{"sub":"日本","aud":null,"iss":null,"exp":null,"streamservice":null}"#,
        #"{"streamservice":{"subscribe":null,"metrics":false}}"#,
        #"{"streamservice":{}}"#,
        #"{}"#,
        " {\n\t\"sub\" : \"spaced\" ,\r\n \"exp\" : 12 } \n",
        // Integers past 2^53, past Int, and negative zero: the integer path rounds as strtod does.
        #"{"exp":9007199254740993,"nbf":-0}"#,
        #"{"exp":9223372036854775807,"nbf":-12}"#,
        #"{"exp":99999999999999999999,"nbf":0}"#,
    ]

    /// Payloads it must leave to the decoder (which then refuses or reads them its own way).
    private let declinedClaims = [
        #"{"sub":1}"#, #"{"aud":[1]}"#, #"{"exp":"soon"}"#, #"{"streamservice":[]}"#,
        #"{"streamservice":{"metrics":"yes"}}"#, #"{"sub":"a","sub":"b"}"#, #"{"exp":1e999}"#,
        #"{"s\u0075b":"escaped key"}"#, #"{"sub":"a"} trailing"#, #"[1]"#, #"{"sub":"a",}"#, "",
        #"{"exp":01}"#, #"{"sub":"\ud800"}"#,
    ]

    func testTheClaimsReaderAgreesWithJSONDecoder() throws {
        for json in plainClaims {
            let fast = try XCTUnwrap(read(json, JWTClaims.read), "declined: \(json)")
            XCTAssertEqual(fast, try JSONDecoder().decode(JWTClaims.self, from: Data(json.utf8)), json)
        }
    }

    func testTheClaimsReaderLeavesEverythingElseToJSONDecoder() {
        for json in declinedClaims {
            XCTAssertNil(read(json, JWTClaims.read), json)
        }
    }

    func testTheHeaderReaderAgreesWithJSONDecoder() throws {
        let plain = [
            #"{"alg":"HS256","typ":"JWT"}"#, #"{"typ":"JWT","alg":"ES256","kid":"k1"}"#, #"{"alg":"none"}"#,
            #"{"alg":"HS256","crit":["b64"],"b64":false}"#, #"{"alg":null,"crit":null}"#, #"{}"#,
        ]
        for json in plain {
            let fast = try XCTUnwrap(read(json, JWTHeader.read), "declined: \(json)")
            XCTAssertEqual(fast, try JSONDecoder().decode(JWTHeader.self, from: Data(json.utf8)), json)
        }
        for json in [#"{"alg":5}"#, #"{"alg":"a","alg":"b"}"#, #"{"crit":"b64"}"#, #"{"alg":"HS256""#] {
            XCTAssertNil(read(json, JWTHeader.read), json)
        }
    }

    /// A payload the reader declines still verifies when the decoder reads it.
    func testAPayloadTheReaderDeclinesIsDecodedByJSONDecoder() throws {
        let mint = try TokenMint()
        // An escaped member name: JSONDecoder reads it as `sub`, the reader declines.
        let token = try mint.token(raw: #"{"s\u0075b":"escaped","exp":4000000000}"#)
        let verifier = JWTVerifier(key: try JWTKey(secret: mint.secret))
        guard case .success(let claims) = verifier.verify(Substring(token), now: 0) else { return XCTFail("refused") }
        XCTAssertEqual(claims.subject, "escaped")
    }

    private func read<Value>(_ json: String, _ reader: (UnsafeBufferPointer<UInt8>) -> Value?) -> Value? {
        Array(json.utf8).withUnsafeBufferPointer { reader($0) }
    }
}

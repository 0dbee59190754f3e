// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import Server
import HTTPTestSupport
import ProcessTestSupport

/// Every kind of bad token on a protected `/events`, over a real socket: a 401 with an RFC 6750
/// challenge and a problem+json body naming what is wrong.
final class TokenRefusalTests: XCTestCase {
    private let grant: [String: Any] = ["sub": "alice", "streamservice": ["subscribe": ["*"]]]

    private func assertInvalidToken(_ response: RawHTTPClient.Response, mentioning words: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(response.status, 401, response.bodyText, file: file, line: line)
        XCTAssertEqual(response.bearerError, "invalid_token", response.header("WWW-Authenticate") ?? "no challenge", file: file, line: line)
        XCTAssertTrue(response.header("WWW-Authenticate")?.contains("error_description=") ?? false, file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json", file: file, line: line)
        XCTAssertTrue(response.bodyText.contains(words), response.bodyText, file: file, line: line)
    }

    func testNoTokenIs401WithABareBearerChallenge() throws {
        let auth = try AuthHarness(self)
        let response = try auth.get("/events")
        XCTAssertEqual(response.status, 401)
        XCTAssertEqual(response.header("WWW-Authenticate"), #"Bearer realm="stream-service""#)
        XCTAssertNil(response.bearerError, "RFC 6750 §3.1: no error code when the request had no token")
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json")
    }

    func testAlgNoneIsRefused() throws {
        let auth = try AuthHarness(self)
        let token = try auth.mint.token(grant, algorithm: "none")
        assertInvalidToken(try auth.get("/events", token: token), mentioning: "algorithm none")
    }

    func testAnHS256TokenSignedWithThePublicKeyIsRefusedWhenTheKeyIsRSA() throws {
        let mint = try TokenMint()
        let rsa = try mint.rsaKeyPair()
        let auth = try AuthHarness(self, mint: mint, key: .publicKeyFile(rsa.publicKey))
        // The RS/HS confusion: the public key's PEM text used as an HMAC secret. PyJWT refuses to
        // make such a token, so Python's own hmac module signs it.
        let script = """
            import base64, hashlib, hmac, json, sys
            b64 = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=")
            head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
            body = b64(json.dumps({"sub": "mallory", "streamservice": {"subscribe": ["*"]}}).encode())
            key = open(sys.argv[1], "rb").read()
            signature = b64(hmac.new(key, head + b"." + body, hashlib.sha256).digest())
            sys.stdout.write((head + b"." + body + b"." + signature).decode())
            """
        let forged = try ChildProcessRunner.output(TokenMint.python, ["-c", script, rsa.publicKey])
        assertInvalidToken(try auth.get("/events", token: forged), mentioning: "algorithm HS256")
    }

    func testAnES256TokenIsRefusedWhenTheKeyIsRSA() throws {
        let mint = try TokenMint()
        let rsa = try mint.rsaKeyPair(), ec = try mint.ecKeyPair()
        let auth = try AuthHarness(self, mint: mint, key: .publicKeyFile(rsa.publicKey))
        let token = try mint.token(grant, algorithm: "ES256", key: ec.privateKey)
        assertInvalidToken(try auth.get("/events", token: token), mentioning: "expected RS256")
    }

    func testATokenSignedWithAnotherSecretHasABadSignature() throws {
        let auth = try AuthHarness(self)
        let token = try auth.mint.token(grant, key: "another-secret-another-secret-another-secret")
        assertInvalidToken(try auth.get("/events", token: token), mentioning: "signature")
    }

    func testATokenWhoseClaimsWereChangedHasABadSignature() throws {
        let auth = try AuthHarness(self)
        let parts = try auth.mint.token(["sub": "alice", "streamservice": ["subscribe": ["users"]]]).split(separator: ".")
        let widened = try auth.mint.token(grant).split(separator: ".")
        let tampered = "\(parts[0]).\(widened[1]).\(parts[2])"
        assertInvalidToken(try auth.get("/events", token: tampered), mentioning: "signature")
    }

    func testAMalformedTokenIsRefused() throws {
        let auth = try AuthHarness(self)
        assertInvalidToken(try auth.get("/events", token: "not.a-token"), mentioning: "malformed")
        assertInvalidToken(try auth.get("/events", token: "e30.e30.e30="), mentioning: "malformed")
    }

    func testAnExpiredTokenIsRefused() throws {
        let auth = try AuthHarness(self, leeway: .seconds(30))
        let token = try auth.mint.token(grant, expiresIn: -60)
        assertInvalidToken(try auth.get("/events", token: token), mentioning: "expired")
    }

    func testATokenExpiredWithinTheLeewayIsAccepted() throws {
        let auth = try AuthHarness(self, leeway: .seconds(30))
        let token = try auth.mint.token(grant, expiresIn: -5)
        let feed = try auth.events(token: token)
        XCTAssertEqual(feed.status, 200)
    }

    func testATokenNotValidYetIsRefused() throws {
        let auth = try AuthHarness(self)
        let token = try auth.mint.token(grant, notBeforeIn: 120)
        assertInvalidToken(try auth.get("/events", token: token), mentioning: "not valid yet")
    }

    func testAWrongAudienceOrIssuerIsRefused() throws {
        let auth = try AuthHarness(self) {
            $0.auth?.audience = "stream-service"
            $0.auth?.issuer = "https://id.example"
        }
        let wrongAudience = try auth.mint.token(grant.merging(["aud": "other", "iss": "https://id.example"]) { $1 })
        assertInvalidToken(try auth.get("/events", token: wrongAudience), mentioning: "aud must include stream-service")
        let wrongIssuer = try auth.mint.token(grant.merging(["aud": ["x", "stream-service"], "iss": "https://evil.example"]) { $1 })
        assertInvalidToken(try auth.get("/events", token: wrongIssuer), mentioning: "iss must be https://id.example")
        let right = try auth.mint.token(grant.merging(["aud": ["x", "stream-service"], "iss": "https://id.example"]) { $1 })
        XCTAssertEqual(try auth.events(token: right).status, 200)
    }

    func testAValidTokenWithoutTheSubscribeClaimIs403InsufficientScope() throws {
        let auth = try AuthHarness(self)
        let token = try auth.mint.token(["sub": "alice"])
        let response = try auth.get("/events", token: token)
        XCTAssertEqual(response.status, 403)
        XCTAssertEqual(response.bearerError, "insufficient_scope")
        XCTAssertTrue(response.bodyText.contains("streamservice.subscribe"), response.bodyText)
    }

    func testAskingForAPipelineTheTokenDoesNotNameIs403() throws {
        let auth = try AuthHarness(self)
        let token = try auth.mint.token(["sub": "alice", "streamservice": ["subscribe": ["users"]]])
        let response = try auth.get("/events?pipeline=profile", token: token)
        XCTAssertEqual(response.status, 403)
        XCTAssertTrue(response.bodyText.contains("pipeline profile"), response.bodyText)
    }

    func testRefusalsAreCountedByReason() throws {
        let auth = try AuthHarness(self)
        _ = try auth.get("/events")
        _ = try auth.get("/events", token: try auth.mint.token(grant, expiresIn: -60))
        _ = try auth.get("/events", token: try auth.mint.token(["sub": "alice"]))
        let page = auth.app.metricsPage { $0.contains(#"auth_refusals_total{reason="forbidden"} 1"#) }
        for reason in ["missing", "expired", "forbidden"] {
            XCTAssertTrue(page.contains(#"auth_refusals_total{reason="\#(reason)"} 1"#), reason)
        }
        XCTAssertTrue(page.contains(#"auth_refusals_total{reason="signature"} 0"#))
    }

    func testUnprotectedRoutesNeedNoToken() throws {
        let auth = try AuthHarness(self)
        XCTAssertEqual(try auth.get("/health").status, 200)
        XCTAssertEqual(try auth.get("/users?limit=1").status, 200)
        XCTAssertEqual(try auth.get("/metrics").status, 200)
    }
}

/// Runs a short command and returns its standard output, failing with its error output.
enum ChildProcessRunner {
    static func output(_ executable: String, _ arguments: [String]) throws -> String {
        let result = try ChildProcess.run(executable, arguments, errorOutput: .captured)
        guard result.termination == .exited(0) else { throw TokenMintFailure(description: "\(executable) failed: \(result.errorOutput)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

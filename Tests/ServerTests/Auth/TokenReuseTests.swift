// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import StreamServiceConcurrency
import XCTest
@testable import Server

/// A token that verified once is verified again on every use: its times, and its signature.
final class TokenReuseTests: XCTestCase {
    func testATokenThatWasAcceptedIsRefusedOnceItExpires() throws {
        let mint = try TokenMint()
        let lasting = try mint.token(["sub": "bob"], expiresIn: nil)
        let expiring = try mint.token(["sub": "alice", "exp": 2_000_000_000], expiresIn: nil)
        let now = Locked(1_999_999_000.0)
        let access = AccessControl(
            verifier: JWTVerifier(key: try JWTKey(secret: mint.secret), leeway: .zero), protected: [.users], cookie: nil,
            proxies: .none, factory: ServiceMetrics().factory, clock: { now.withLock { $0 } })
        func outcome(_ token: String) -> String {
            let request = Request(method: .get, target: "/users", headers: ["Authorization": "Bearer \(token)"], remoteAddress: "127.0.0.1:1")
            switch access.caller(of: request, for: .users) {
            case .success(let caller): return caller.claims?.subject ?? "anonymous"
            case .failure(let refusal): return refusal.reason
            }
        }
        XCTAssertEqual(outcome(expiring), "alice")
        XCTAssertEqual(outcome(expiring), "alice", "again")
        now.withLock { $0 = 2_000_000_001 }
        XCTAssertEqual(outcome(expiring), "expired")
        XCTAssertEqual(outcome(lasting), "bob", "a token without exp does not expire")
        // The signature's first character changed: still base64url, no longer the signature.
        let parts = lasting.split(separator: ".")
        let forged = "\(parts[0]).\(parts[1]).\(parts[2].first == "A" ? "B" : "A")\(parts[2].dropFirst())"
        XCTAssertEqual(outcome(forged), "signature", "a forgery of an accepted token is refused")
    }
}

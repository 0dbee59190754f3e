import HTTP
import StreamServiceConcurrency
import XCTest
@testable import Server

/// `AccessControl` remembers tokens that verified, but checks their times on every use.
final class VerifiedTokenCacheTests: XCTestCase {
    func testARememberedTokenIsStillRefusedOnceItExpires() throws {
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
        XCTAssertEqual(outcome(expiring), "alice", "remembered")
        now.withLock { $0 = 2_000_000_001 }
        XCTAssertEqual(outcome(expiring), "expired")
        XCTAssertEqual(outcome(lasting), "bob", "a token without exp does not expire")
        // The signature's first character changed: still base64url, no longer the signature.
        let parts = lasting.split(separator: ".")
        let forged = "\(parts[0]).\(parts[1]).\(parts[2].first == "A" ? "B" : "A")\(parts[2].dropFirst())"
        XCTAssertEqual(outcome(forged), "signature", "a forgery is never taken for a remembered token")
    }

    func testTokensThatShareTheirHashedLastBytesAreStillTokensOfTheirOwn() {
        let tokens = VerifiedTokens(capacity: 10)
        let tail = String(repeating: "T", count: VerifiedTokens.Key.hashedBytes)
        tokens.remember(JWTClaims(subject: "a"), of: "header.a-payload.\(tail)")
        tokens.remember(JWTClaims(subject: "b"), of: "header.b-payload.\(tail)")
        XCTAssertEqual(tokens.claims(of: "header.a-payload.\(tail)")?.subject, "a")
        XCTAssertEqual(tokens.claims(of: "header.b-payload.\(tail)")?.subject, "b")
        XCTAssertNil(tokens.claims(of: "header.c-payload.\(tail)"))
        XCTAssertNil(tokens.claims(of: Substring(tail)), "shorter than the hashed bytes plus a prefix")
    }

    func testATableAtCapacityIsEmptiedBeforeTheNextToken() {
        let tokens = VerifiedTokens(capacity: 2)
        tokens.remember(JWTClaims(subject: "1"), of: "t1")
        tokens.remember(JWTClaims(subject: "2"), of: "t2")
        tokens.remember(JWTClaims(subject: "3"), of: "t3")
        XCTAssertNil(tokens.claims(of: "t1"))
        XCTAssertNil(tokens.claims(of: "t2"))
        XCTAssertEqual(tokens.claims(of: "t3")?.subject, "3")
    }

    func testATokenIsFoundWhateverFieldItWasCutFrom() {
        let tokens = VerifiedTokens(capacity: 10)
        let cookies = "theme=dark; " + String(repeating: "x=1; ", count: 100) + "access=tok.en.sig"
        tokens.remember(JWTClaims(subject: "c"), of: cookies.split(separator: "=").last!)
        let authorization = "Bearer tok.en.sig"
        XCTAssertEqual(tokens.claims(of: authorization.dropFirst(7))?.subject, "c")
    }
}

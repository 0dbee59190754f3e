// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import Server
import HTTPTestSupport

/// What a token lets a subscriber read on `/events`, over real sockets.
final class EventsAccessTests: XCTestCase {
    private func subscribeClaim(_ pipelines: [String]) -> [String: Any] {
        ["sub": "alice", "streamservice": ["subscribe": pipelines]]
    }

    func testEventsOfPipelinesTheTokenDoesNotNameAreNeverSent() throws {
        let auth = try AuthHarness(self)
        let feed = try auth.events(token: try auth.mint.token(subscribeClaim(["granted-a"])))
        XCTAssertEqual(feed.status, 200)
        XCTAssertNotNil(try feed.next()) // the retry prelude: subscribed from here on
        auth.publish(.subscribe, pipeline: "withheld-b")
        auth.publish(.end, pipeline: "granted-a")
        let message = try XCTUnwrap(feed.nextEvent())
        XCTAssertEqual(message.event, "end", "the withheld pipeline's subscribe came first and was not sent")
        XCTAssertTrue(message.data?.contains(#""pipeline":"granted-a""#) ?? false, message.data ?? "")
    }

    func testAStarClaimReadsEveryPipeline() throws {
        let auth = try AuthHarness(self)
        let feed = try auth.events("/events?pipeline=avatar", token: try auth.mint.token(subscribeClaim(["*"])))
        XCTAssertNotNil(try feed.next())
        auth.publish(.data, pipeline: "avatar")
        XCTAssertEqual(try feed.nextEvent()?.event, "data")
    }

    func testLastEventIDReplayIsFilteredByTheClaimToo() throws {
        let auth = try AuthHarness(self)
        let everything = try auth.events(token: try auth.mint.token(subscribeClaim(["*"])))
        XCTAssertNotNil(try everything.next())
        auth.publish(.subscribe, pipeline: "replay-granted")
        let before = try XCTUnwrap(everything.nextEvent()?.id)
        auth.publish(.data, pipeline: "replay-withheld")
        auth.publish(.end, pipeline: "replay-granted")
        XCTAssertEqual(try everything.nextEvent()?.event, "data")
        XCTAssertEqual(try everything.nextEvent()?.event, "end")
        let resumed = try auth.events(token: try auth.mint.token(subscribeClaim(["replay-granted"])), headers: ["Last-Event-ID": before])
        let replayed = try XCTUnwrap(resumed.nextEvent())
        XCTAssertEqual(replayed.event, "end", "the withheld pipeline's data between them is not replayed")
        XCTAssertTrue(replayed.data?.contains("replay-granted") ?? false)
    }

    func testATokenExpiringAtTheLargestIntegerSubscribesAndTheServiceGoesOn() throws {
        let auth = try AuthHarness(self)
        let token = try auth.mint.token(["sub": "alice", "exp": Int.max, "streamservice": ["subscribe": ["*"]]], expiresIn: nil)
        let feed = try auth.events("/events?pipeline=profile", token: token)
        XCTAssertEqual(feed.status, 200)
        XCTAssertNotNil(try feed.next())
        auth.publish(.data, pipeline: "profile")
        XCTAssertEqual(try feed.nextEvent()?.event, "data")
        XCTAssertEqual(try auth.app.get("/health").status, 200)
    }

    func testAStreamWhoseTokenExpiresEndsWithAnExpiredEvent() throws {
        let auth = try AuthHarness(self)
        let feed = try auth.events(token: try auth.mint.token(subscribeClaim(["*"]), expiresIn: 2))
        XCTAssertEqual(feed.status, 200)
        let messages = try feed.all()
        XCTAssertEqual(messages.last?.event, "expired", "\(messages.map { $0.event ?? "-" })")
        XCTAssertTrue(feed.ended, "the response ended after the expired event")
    }

    func testTheTokenMayComeInTheCookie() throws {
        let auth = try AuthHarness(self) { $0.auth?.cookie = "sstoken" }
        let token = try auth.mint.token(subscribeClaim(["*"]))
        let feed = try auth.events(headers: ["Cookie": "theme=dark; sstoken=\(token); other=1"])
        XCTAssertEqual(feed.status, 200)
        XCTAssertEqual(try auth.get("/events", headers: ["Cookie": "othertoken=\(token)"]).status, 401, "only the configured cookie is read")
    }

    func testTheTokenMayComeInTheQueryAndIsRedactedInTheAccessLog() throws {
        let auth = try AuthHarness(self)
        let token = try auth.mint.token(subscribeClaim(["*"]))
        let feed = try auth.events("/events?pipeline=profile&access_token=\(token)")
        XCTAssertEqual(feed.status, 200)
        let refused = try auth.get("/events?access_token=\(token.dropLast(3))xyz")
        XCTAssertEqual(refused.status, 401)
        let line = try XCTUnwrap(auth.app.accessLogLines(count: 1).first)
        XCTAssertEqual(line["status"] as? Int, 401)
        let written = auth.app.output.lines().joined(separator: "\n")
        XCTAssertFalse(written.contains(String(token.split(separator: ".")[2])), "no token signature in any log line")
        XCTAssertTrue(written.contains("access_token=redacted"), written)
    }

    func testATokenSentAsTheRequestIDIsRedactedInLogsAndEvents() throws {
        let auth = try AuthHarness(self, protected: [])
        // Short claims keep it within the 128 bytes a client's X-Request-ID may have.
        let token = try auth.mint.token(["sub": "a"], expiresIn: nil)
        XCTAssertLessThanOrEqual(token.utf8.count, 128)
        let watcher = try auth.events("/events?pipeline=profile")
        XCTAssertNotNil(try watcher.next())
        XCTAssertEqual(try auth.get("/users/ada1", headers: ["X-Request-ID": token]).status, 200)
        let event = try XCTUnwrap(watcher.nextEvent())
        XCTAssertTrue(event.data?.contains(#""requestId":"redacted""#) ?? false, event.data ?? "")
        let line = try XCTUnwrap(auth.app.accessLogLines(count: 1).first { $0["path"] as? String == "/users/ada1" })
        XCTAssertEqual(line["request_id"] as? String, "redacted")
        XCTAssertFalse(auth.app.output.lines().joined().contains(token))
    }

    func testES256AndRS256TokensVerifyWithAPublicKey() throws {
        let mint = try TokenMint()
        for (pair, algorithm) in [(try mint.ecKeyPair(), "ES256"), (try mint.rsaKeyPair(), "RS256")] {
            let auth = try AuthHarness(self, mint: mint, key: .publicKeyFile(pair.publicKey))
            let token = try mint.token(subscribeClaim(["*"]), algorithm: algorithm, key: pair.privateKey)
            XCTAssertEqual(try auth.events(token: token).status, 200, algorithm)
            let other = algorithm == "ES256" ? try mint.ecKeyPair("other") : try mint.rsaKeyPair("other")
            let forged = try mint.token(subscribeClaim(["*"]), algorithm: algorithm, key: other.privateKey)
            XCTAssertEqual(try auth.get("/events", token: forged).status, 401, "\(algorithm) signed by another key")
        }
    }

    func testProtectedMetricsNeedTheMetricsClaim() throws {
        let auth = try AuthHarness(self, protected: [.metrics])
        XCTAssertEqual(try auth.get("/metrics").status, 401)
        XCTAssertEqual(try auth.get("/metrics", token: try auth.mint.token(subscribeClaim(["*"]))).status, 403)
        let allowed = try auth.get("/metrics", token: try auth.mint.token(["sub": "ops", "streamservice": ["metrics": true]]))
        XCTAssertEqual(allowed.status, 200)
        XCTAssertTrue(allowed.bodyText.contains("auth_refusals_total"))
    }

    func testProtectedUsersNeedAnyValidToken() throws {
        let auth = try AuthHarness(self, protected: [.users])
        XCTAssertEqual(try auth.get("/users/ada1").status, 401)
        XCTAssertEqual(try auth.get("/users/ada1", token: try auth.mint.token(["sub": "bob"])).status, 200)
        XCTAssertEqual(try auth.events().status, 200, "events stay open when only users are protected")
    }

    func testACookieWithCORSAllowsCredentialsForTheListedOriginOnly() throws {
        let origin = "https://app.example"
        let auth = try AuthHarness(self) {
            $0.auth?.cookie = "sstoken"
            $0.corsOrigins = .list([origin])
        }
        let token = try auth.mint.token(subscribeClaim(["*"]))
        let feed = try auth.events(headers: ["Cookie": "sstoken=\(token)", "Origin": origin])
        XCTAssertEqual(feed.headers["access-control-allow-origin"], origin)
        XCTAssertEqual(feed.headers["access-control-allow-credentials"], "true")
        let other = try auth.get("/health", headers: ["Origin": "https://evil.example"])
        XCTAssertNil(other.header("Access-Control-Allow-Credentials"))
    }
}

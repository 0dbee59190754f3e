// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import Foundation
import XCTest
@testable import Server
import HTTP
import HTTPTesting
import HTTPTestSupport

final class EventsRouteTests: XCTestCase {
    private func publish(_ kind: PipelineEvent.Kind, pipeline: String = "avatar", to app: AppHarness) {
        app.hub.publish(PipelineEvent(kind: kind, pipeline: pipeline, requestId: "r", stage: "s"))
    }

    func testLivePipelineEventsArriveAsEventsNamedByKind() throws {
        let app = try AppHarness(self)
        let feed = try SSETestClient(port: app.port, target: "/events?pipeline=avatar")
        XCTAssertNotNil(try feed.next()) // the retry prelude: subscribed from here on
        publish(.subscribe, to: app)
        let message = try XCTUnwrap(feed.nextEvent())
        XCTAssertEqual(message.event, "subscribe")
        XCTAssertNotNil(message.id)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(message.data!.utf8)) as? [String: Any])
        XCTAssertEqual(json["pipeline"] as? String, "avatar")
        XCTAssertEqual(json["kind"] as? String, "subscribe")
    }

    func testKindsFilterDropsOtherKinds() throws {
        let app = try AppHarness(self)
        let feed = try SSETestClient(port: app.port, target: "/events?pipeline=avatar&kinds=end,error")
        XCTAssertNotNil(try feed.next())
        publish(.subscribe, to: app)
        publish(.data, to: app)
        publish(.end, to: app)
        XCTAssertEqual(try feed.nextEvent()?.event, "end")
    }

    // The route's own refusals, before it subscribes: read in process (`RouterTestClient.service()`).

    func testUnknownKindIs400ProblemNamingTheParameter() async throws {
        let response = try await RouterTestClient.service().execute(.get, "/events?kinds=bogus")
        XCTAssertEqual(response.status, .badRequest)
        XCTAssertTrue(response.bodyText.contains("'kinds'") && response.bodyText.contains("bogus"), response.bodyText)
    }

    func testAMisspeltPipelineIsRefusedWithTheSuggestionAndTheKnownPipelines() async throws {
        let response = try await RouterTestClient.service().execute(.get, "/events?pipeline=user")
        XCTAssertEqual(response.status, .badRequest)
        XCTAssertEqual(
            response.bodyJSON?["detail"] as? String,
            "Query parameter 'pipeline' must be one of users, users-stream, profile, avatar, clock, got 'user'; did you mean 'users'?")
    }

    func testEveryKnownPipelineAndTheEmptyOneAreAccepted() throws {
        let app = try AppHarness(self)
        for pipeline in ["users", "users-stream", "profile", "avatar", "clock", ""] {
            XCTAssertEqual(try SSETestClient(port: app.port, target: "/events?pipeline=\(pipeline)").status, 200, pipeline)
        }
    }

    func testAClientsLookAlikeOfTheServicesRequestIdIsNotShownToSubscribers() throws {
        let app = try AppHarness(self)
        let feed = try SSETestClient(port: app.port, target: "/events?pipeline=profile&kinds=subscribe")
        XCTAssertNotNil(try feed.next())
        let response = try app.get("/users/ada1", headers: ["X-Request-ID": "req-fffff1"])
        XCTAssertEqual(response.status, 200)
        let answered = try XCTUnwrap(response.header("X-Request-ID"))
        XCTAssertNotEqual(answered, "req-fffff1", "the service's own id family is not the client's to use")
        let event = try XCTUnwrap(feed.nextEvent())
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(event.data!.utf8)) as? [String: Any])
        XCTAssertEqual(json["requestId"] as? String, answered)
    }

    func testEventsHistoryBoundsWhatALastEventIDResumeCanReplay() throws {
        let app = try AppHarness(self) { $0.eventsHistory = 2 }
        let live = try SSETestClient(port: app.port, target: "/events?pipeline=avatar")
        XCTAssertNotNil(try live.next())
        publish(.subscribe, to: app)
        let first = try XCTUnwrap(live.nextEvent()?.id)
        for kind in [PipelineEvent.Kind.data, .data, .end] {
            publish(kind, to: app)
            XCTAssertEqual(try live.nextEvent()?.event, kind.rawValue)
        }
        // Three events after `first`, two kept: the resume starts with a reset, then the two.
        let resumed = try SSETestClient(port: app.port, target: "/events?pipeline=avatar", headers: ["Last-Event-ID": first])
        XCTAssertEqual(try resumed.nextEvent()?.event, "reset")
        XCTAssertEqual(try resumed.nextEvent()?.event, "data")
        XCTAssertEqual(try resumed.nextEvent()?.event, "end")
    }

    func testLastEventIDResumesFromTheReplayBuffer() throws {
        let app = try AppHarness(self)
        let first = try SSETestClient(port: app.port, target: "/events?pipeline=avatar")
        XCTAssertNotNil(try first.next())
        publish(.subscribe, pipeline: "avatar", to: app)
        let seen = try XCTUnwrap(first.nextEvent()?.id)
        publish(.data, pipeline: "avatar", to: app)
        publish(.end, pipeline: "avatar", to: app)
        let resumed = try SSETestClient(port: app.port, target: "/events?pipeline=avatar", headers: ["Last-Event-ID": seen])
        XCTAssertEqual(try resumed.nextEvent()?.event, "data")
        XCTAssertEqual(try resumed.nextEvent()?.event, "end")
    }

    func testEventsClockBroadcastsTicksToEveryClient() throws {
        let app = try AppHarness(self) { $0.eventsClock = .milliseconds(20) }
        let clients = try (0..<3).map { _ in try SSETestClient(port: app.port, target: "/events?pipeline=clock") }
        for client in clients {
            let tick = try XCTUnwrap(client.nextEvent())
            XCTAssertEqual(tick.event, "tick")
            XCTAssertTrue(tick.data?.hasPrefix("tick ") ?? false)
        }
    }

    func testAClockTickCarriesTheTimeItWasPublishedAsAnAtComment() throws {
        let app = try AppHarness(self) { $0.eventsClock = .milliseconds(20) }
        let client = try SSETestClient(port: app.port, target: "/events?pipeline=clock")
        let stamps = try (0..<2).map { _ in
            let tick = try XCTUnwrap(client.nextEvent())
            let received = Date().timeIntervalSince1970
            let comment = try XCTUnwrap(tick.comments.first, "a tick has the comment `at <Unix seconds>`")
            XCTAssertTrue(comment.wholeMatch(of: /at \d+\.\d{6}/) != nil, comment)
            let stamp = try XCTUnwrap(Double(comment.dropFirst("at ".count)))
            XCTAssertLessThanOrEqual(stamp, received, "published before it arrived")
            XCTAssertGreaterThan(stamp, received - 5, "published moments before it arrived")
            return stamp
        }
        XCTAssertLessThan(stamps[0], stamps[1])
    }

    func testHeartbeatCommentsKeepAnIdleStreamAlive() throws {
        let app = try AppHarness(self) { $0.sseHeartbeat = .milliseconds(20) }
        let feed = try SSETestClient(port: app.port, target: "/events?pipeline=clock")
        var comments: [String] = []
        while comments.isEmpty, let message = try feed.next() {
            comments += message.comments
        }
        XCTAssertEqual(comments, ["heartbeat"])
    }
}

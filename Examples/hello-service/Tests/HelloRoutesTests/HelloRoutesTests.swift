// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTP
import HTTPTesting
import HelloRoutes
import Streams
import StreamsTesting
import XCTest

/// The example's routes, tested as an adopter would: in process through `RouterTestClient`, on
/// virtual time through `TestScheduler`, and against a real upstream on 127.0.0.1.
final class HelloRoutesTests: XCTestCase {
    func testHelloGreetsByNameInJSON() async throws {
        let response = try await RouterTestClient(HelloRoutes(upstream: "http://127.0.0.1:1/").router).execute(.get, "/hello?name=ada")
        XCTAssertEqual(response.headers["Content-Type"], "application/json; charset=utf-8")
        XCTAssertEqual(response.bodyText, #"{"greeting":"hello, ada"}"#)
    }

    func testAMisspeltParameterIsA400ThatSaysWhichOneItReads() async throws {
        let response = try await RouterTestClient(HelloRoutes(upstream: "http://127.0.0.1:1/").router).execute(.get, "/hello?nme=ada")
        XCTAssertEqual(response.status, .badRequest)
        XCTAssertTrue(response.bodyText.contains("name"), response.bodyText)
    }

    func testTicksComeOncePerSecondOnVirtualTimeAfterTheReconnectDelay() async throws {
        let scheduler = TestScheduler()
        let response = try await RouterTestClient(HelloRoutes(upstream: "http://127.0.0.1:1/", scheduler: scheduler).router).execute(.get, "/ticks")
        let body = try XCTUnwrap(response.streamedBody)
        let (recorder, subscription) = scheduler.record(body.map { String(decoding: $0, as: UTF8.self) })
        scheduler.advance(to: .milliseconds(1_500))
        XCTAssertEqual(response.headers["Content-Type"], "text/event-stream; charset=utf-8")
        XCTAssertEqual(recorder.events, [
            .at(0, .data("retry: 2000\n\n")),
            .at(0, .data("id: 0\ndata: tick 0\n\n")),
            .at(1_000, .data("id: 1\ndata: tick 1\n\n")),
        ])
        subscription.dispose()
    }

    func testQuoteRetriesAFailingUpstreamThenAnswersWithItsText() async throws {
        // A real upstream on loopback that fails twice with 503, then answers.
        let calls = UpstreamCalls()
        var upstream = Router()
        upstream.get("/quote") { _ in
            calls.next() <= 2 ? .just(.text("busy", status: .serviceUnavailable)) : .just(.text("be water"))
        }
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), router: upstream)
        let port = try server.start()
        let routes = HelloRoutes(upstream: "http://127.0.0.1:\(port)/quote")
        let response = try await RouterTestClient(routes.router).execute(.get, "/quote")
        XCTAssertEqual(response.bodyText, "be water")
        XCTAssertEqual(calls.count, 3)
        await server.shutdown(deadline: .seconds(5))
    }

    func testQuoteAnswers502WhenTheUpstreamIsAway() async throws {
        // Port 1 on loopback: nothing listens, every connection is refused.
        let response = try await RouterTestClient(HelloRoutes(upstream: "http://127.0.0.1:1/quote").router).execute(.get, "/quote")
        XCTAssertEqual(response.status, .badGateway)
    }
}

/// Counts the upstream's calls from its loop threads.
final class UpstreamCalls: @unchecked Sendable {
    // @unchecked: `calls` is only touched under `lock`.
    private let lock = NSLock()
    private var calls = 0

    func next() -> Int {
        lock.lock(); defer { lock.unlock() }
        calls += 1
        return calls
    }

    var count: Int {
        lock.lock(); defer { lock.unlock() }
        return calls
    }
}

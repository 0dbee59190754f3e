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

    func testQuoteWaitsTheUpstreamsRetryAfterOnVirtualTime() async throws {
        // A real upstream on loopback that answers 503 with Retry-After: 1, then the quote.
        let calls = UpstreamCalls()
        var upstream = Router()
        upstream.get("/quote") { _ in
            guard calls.next() > 1 else {
                var busy = Response.text("busy", status: .serviceUnavailable)
                busy.headers.add(name: "Retry-After", value: "1")
                return .just(busy)
            }
            return .just(.text("be water"))
        }
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), router: upstream)
        let port = try server.start()
        let scheduler = NotingScheduler()
        let routes = HelloRoutes(upstream: "http://127.0.0.1:\(port)/quote", scheduler: scheduler)
        let answer = Task { try await RouterTestClient(routes.router).execute(.get, "/quote") }
        // The 503 arrives in real time; the retry then waits on the virtual clock. Each attempt
        // sets its 2 s timeout there when it starts.
        try await eventually("the retry waits 1 s") { scheduler.waits.contains(.seconds(1)) }
        scheduler.clock.advance(to: .milliseconds(999))
        XCTAssertEqual(scheduler.waits.filter { $0 == .seconds(2) }.count, 1, "no second attempt before the second the upstream asked for")
        scheduler.clock.advance(to: .seconds(1))
        XCTAssertEqual(scheduler.waits.filter { $0 == .seconds(2) }.count, 2, "the second attempt at 1 s")
        let response = try await answer.value
        XCTAssertEqual(response.bodyText, "be water")
        XCTAssertEqual(calls.count, 2)
        await server.shutdown(deadline: .seconds(5))
    }

    func testQuoteAnswers502WhenTheUpstreamIsAway() async throws {
        // Port 1 on loopback: nothing listens, every connection is refused.
        let response = try await RouterTestClient(HelloRoutes(upstream: "http://127.0.0.1:1/quote").router).execute(.get, "/quote")
        XCTAssertEqual(response.status, .badGateway)
    }
}

/// Polls `condition` until it holds; throws (failing the test) after 5 s.
func eventually(_ what: String, _ condition: @Sendable () -> Bool) async throws {
    struct Never: Error, CustomStringConvertible { var description: String }
    let deadline = ContinuousClock.now + .seconds(5)
    while !condition() {
        guard ContinuousClock.now < deadline else { throw Never(description: "not within 5 s: \(what)") }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// A `TestScheduler` that notes every wait asked of it: a test sees when a retry waits, and for how long.
final class NotingScheduler: Scheduler, @unchecked Sendable {
    // @unchecked: `asked` is only touched under `lock`.
    let clock = TestScheduler()
    private let lock = NSLock()
    private var asked: [Duration] = []

    var now: Duration { clock.now }

    func schedule(_ work: @escaping @Sendable () -> Void) { clock.schedule(work) }

    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> Disposable {
        lock.lock()
        asked.append(delay)
        lock.unlock()
        return clock.schedule(after: delay, work)
    }

    var waits: [Duration] {
        lock.lock(); defer { lock.unlock() }
        return asked
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

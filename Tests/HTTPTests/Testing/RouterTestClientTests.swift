// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import HTTPTesting
import StreamServiceConcurrency
import Streams
import StreamsTesting
import XCTest

/// The in-process router client answers as the server would, minus what only the wire does.
final class RouterTestClientTests: XCTestCase {
    private var router: Router {
        var router = Router()
        router.get("/hello/{name}") { request in .just(.text("hello \(request.pathParameters["name"] ?? "?")")) }
        router.post("/echo") { request in .just(Response(status: .ok, body: .bytes(request.body))) }
        router.get("/count") { _ in
            .just(.stream(.from([Array("1\n".utf8), Array("2\n".utf8)]), contentType: "text/plain"))
        }
        router.get("/fails") { _ in .just(error: CocoaLikeError()) }
        return router
    }

    private struct CocoaLikeError: Error, CustomStringConvertible {
        var description: String { "open /var/secret failed" }
    }

    func testARouteAnswersWithItsPathParameter() async throws {
        let response = try await RouterTestClient(router).execute(.get, "/hello/ada")
        XCTAssertEqual(response.status, .ok)
        XCTAssertEqual(response.bodyText, "hello ada")
    }

    func testARequestBodyReachesTheHandler() async throws {
        let response = try await RouterTestClient(router).execute(.post, "/echo", body: Array("ping".utf8))
        XCTAssertEqual(response.bodyText, "ping")
    }

    func testAnUnknownPathIsTheRoutersNotFoundProblem() async throws {
        let response = try await RouterTestClient(router).execute(.get, "/nowhere")
        XCTAssertEqual(response.status, .notFound)
        XCTAssertEqual(response.headers["Content-Type"], "application/problem+json")
    }

    func testAWrongMethodIsAMethodNotAllowedProblemWithAllow() async throws {
        let response = try await RouterTestClient(router).execute(.delete, "/echo")
        XCTAssertEqual(response.status, .methodNotAllowed)
        XCTAssertEqual(response.headers["Allow"], "POST")
    }

    func testAStreamedBodyIsHandedBackUnreadAndReadsToItsEnd() async throws {
        let response = try await RouterTestClient(router).execute(.get, "/count")
        XCTAssertNotNil(response.streamedBody)
        let body = try await response.readBody()
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "1\n2\n")
    }

    func testAFailedHandlerIsTheServersGeneric500AndTheObserverSeesTheError() async throws {
        let seen = Locked<[String]>([])
        let client = RouterTestClient(router, observer: HTTPServerObserver(handlerFailed: { failure in
            seen.withLock { $0.append("\(failure.requestID): \(failure.error)") }
        }))
        let response = try await client.execute(.get, "/fails", requestID: "req-7")
        XCTAssertEqual(response.status, .internalServerError)
        XCTAssertFalse(response.bodyText.contains("secret"), response.bodyText)
        XCTAssertTrue(response.bodyText.contains("req-7"), response.bodyText)
        XCTAssertEqual(seen.withLock { $0 }, ["req-7: open /var/secret failed"])
    }

    func testAnSSEStyleStreamIsReadOnVirtualTime() async throws {
        let scheduler = TestScheduler()
        var router = Router()
        router.get("/ticks") { _ in
            .just(.stream(DataStream.interval(.seconds(1), scheduler: scheduler).map { Array("data: \($0)\n\n".utf8) }, contentType: "text/event-stream"))
        }
        let response = try await RouterTestClient(router).execute(.get, "/ticks")
        let body = try XCTUnwrap(response.streamedBody)
        let (recorder, subscription) = scheduler.record(body.map { String(decoding: $0, as: UTF8.self) })
        scheduler.advance(to: .milliseconds(2_500))
        XCTAssertEqual(recorder.events, [.at(0, .data("data: 0\n\n")), .at(1_000, .data("data: 1\n\n")), .at(2_000, .data("data: 2\n\n"))])
        subscription.dispose()
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP
import HTTPTestSupport

final class RoutingErrorTests: XCTestCase {
    func testUnknownPathIsA404Problem() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        try client.send("GET /nope HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 404)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json")
        let problem = try XCTUnwrap(response.bodyJSON)
        XCTAssertEqual(problem["status"] as? Int, 404)
        XCTAssertEqual(problem["title"] as? String, "Not Found")
        XCTAssertEqual(problem["type"] as? String, "about:blank")
        XCTAssertEqual(problem["instance"] as? String, "/nope")
        XCTAssertNotNil(problem["detail"] as? String)
    }

    func testWrongMethodIsA405ProblemWithAllow() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        try client.send("DELETE /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 405)
        XCTAssertEqual(response.header("Allow"), "GET, HEAD")
        XCTAssertEqual(response.bodyJSON?["status"] as? Int, 405)
    }

    func testPathParametersReachTheHandler() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        try client.send("GET /users/octocat/avatar HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().bodyText, "avatar of octocat")
    }

    func testHandlerFailingWithHTTPErrorGetsThatStatus() throws {
        var router = Router()
        router.get("/teapot") { _ in .just(error: HTTPError(HTTPStatus(code: 418, reasonPhrase: "I'm a teapot"), detail: "short and stout")) }
        let server = try TestServer(router: router)
        let client = try server.client()
        try client.send("GET /teapot HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 418)
        XCTAssertEqual(response.bodyJSON?["detail"] as? String, "short and stout")
    }

    func testHandlerFailingWithAnyOtherErrorIsA500Problem() throws {
        struct Boom: Error {}
        var router = Router()
        router.get("/boom") { _ in .just(error: Boom()) }
        let server = try TestServer(router: router)
        let client = try server.client()
        try client.send("GET /boom HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 500)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json")
    }
}

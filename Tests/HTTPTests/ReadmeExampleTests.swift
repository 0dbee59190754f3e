// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTP
import Streams
import XCTest

/// The library guide's example (docs/library.md, "HTTP as a library"), as written there: a service
/// built on the `Streams` and `HTTP` products alone (this file imports nothing else but XCTest
/// and Foundation, and no internals).
final class ReadmeExampleTests: XCTestCase {
    private func countdownServer() throws -> (HTTPServer, Int) {
        var router = Router()
        router.get("/countdown") { request in
            DataStream.just(request).map { request in
                let from = try request.queryParameters.integer("from", in: 1...10, default: 3)
                let lines = DataStream.from(Array((0...from).reversed())).map { Array("\($0)\n".utf8) }
                return Response.stream(lines, contentType: "text/plain; charset=utf-8")
            }
        }
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), router: router)
        let port = try server.start()
        return (server, port)
    }

    func testAStreamRouteAnswersOverLoopback() async throws {
        let (server, port) = try countdownServer()
        let request = try XCTUnwrap(HTTPClientRequest(url: "http://127.0.0.1:\(port)/countdown?from=3"))
        let answer = try await HTTPClient().send(request).first()
        XCTAssertEqual(answer?.status, .ok)
        XCTAssertEqual(answer?.headers["Transfer-Encoding"], "chunked", "the body was streamed")
        XCTAssertEqual(answer.map { String(decoding: $0.body, as: UTF8.self) }, "3\n2\n1\n0\n")
        await server.shutdown(deadline: .seconds(5))
    }

    func testABadParameterFailsThePipelineWithA400Problem() async throws {
        let (server, port) = try countdownServer()
        let request = try XCTUnwrap(HTTPClientRequest(url: "http://127.0.0.1:\(port)/countdown?from=99"))
        let answer = try await HTTPClient().send(request).first()
        XCTAssertEqual(answer?.status, .badRequest)
        XCTAssertEqual(answer?.headers["Content-Type"], "application/problem+json")
        XCTAssertTrue(answer.map { String(decoding: $0.body, as: UTF8.self) }?.contains("got '99'") ?? false)
        await server.shutdown(deadline: .seconds(5))
    }

    /// The page shows the code these tests run: every line of `countdownServer()` from the router
    /// to `server.start()` is a line of the page's Swift block (the page's comments aside).
    func testTheLibraryGuideShowsTheCodeThisFileRuns() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: repository.appendingPathComponent("docs/library.md"), encoding: .utf8)
        let test = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let block = try XCTUnwrap(guide.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "```").first,
                                  "docs/library.md has no Swift block")
        let shown = Set(block.split(separator: "\n").map { line in
            String(line.replacing(/\s+\/\/.*$/, with: "")).trimmingCharacters(in: .whitespaces)
        })
        let lines = test.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let start = try XCTUnwrap(lines.firstIndex(of: "var router = Router()"))
        let end = try XCTUnwrap(lines.firstIndex(of: "let port = try server.start()"))
        for line in lines[start...end] {
            XCTAssertTrue(shown.contains(line), "docs/library.md does not show: \(line)")
        }
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTP
import HTTPTestSupport
import Streams
import XCTest
@testable import Domain

/// The transport over a real server on 127.0.0.1: each request reaches it with its own
/// header fields, however many requests share or differ in their dictionaries.
final class HTTPUpstreamTransportTests: XCTestCase {
    func testEachRequestIsSentWithItsOwnHeaders() async throws {
        var router = Router()
        router.get("/fields") { request in
            let names = ["Accept", "Authorization", "If-None-Match"]
            return .just(.text(names.map { "\($0)=\(request.headers[$0] ?? "-")" }.joined(separator: ";")))
        }
        let server = try TestServer(router: router)
        let transport = HTTPUpstreamTransport()
        let url = URL(string: "http://127.0.0.1:\(server.port)/fields")!
        let shared = ["Accept": "application/json"]
        let dictionaries: [[String: String]] = [
            shared, ["Accept": "application/json", "Authorization": "Bearer a"], shared,
            ["Accept": "text/plain", "If-None-Match": "\"1\""], ["Accept": "text/plain", "If-None-Match": "\"2\""],
            ["Accept": "x/1"], ["Accept": "x/2"], ["Accept": "x/3"], shared, ["Accept": "application/json", "Authorization": "Bearer a"],
        ]
        for headers in dictionaries {
            let sent = try await transport.send(UpstreamRequest(url: url, headers: headers)).first()
            let answer = try XCTUnwrap(sent)
            let expected = ["Accept", "Authorization", "If-None-Match"].map { "\($0)=\(headers[$0] ?? "-")" }.joined(separator: ";")
            XCTAssertEqual(String(decoding: answer.body, as: UTF8.self), expected)
        }
    }
}

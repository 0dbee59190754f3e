// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTP
import HTTPTestSupport
import StreamServiceConcurrency
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

    /// A transport with `send` alone: its `send(_:observing:)` is the protocol's default, a `map`.
    private struct SendAlone: UpstreamTransport {
        let next: HTTPUpstreamTransport
        func send(_ request: UpstreamRequest) -> DataStream<UpstreamResponse> { next.send(request) }
    }

    func testAnObservedResponseIsTheOneDeliveredAsWithTheDefaultMap() async throws {
        var router = Router()
        router.get("/answer") { _ in .just(.text("answered")) }
        let server = try TestServer(router: router)
        let transport = HTTPUpstreamTransport()
        let request = UpstreamRequest(url: URL(string: "http://127.0.0.1:\(server.port)/answer")!)
        for sender in [transport as any UpstreamTransport, SendAlone(next: transport)] {
            let observed = Locked<[UpstreamResponse]>([])
            let delivered = try await sender.send(request) { response in observed.withLock { $0.append(response) } }.first()
            XCTAssertEqual(observed.withLock { $0 }, [try XCTUnwrap(delivered)], "\(type(of: sender))")
            XCTAssertEqual(delivered?.status, 200)
            XCTAssertEqual(delivered.map { String(decoding: $0.body, as: UTF8.self) }, "answered")
        }
    }
}

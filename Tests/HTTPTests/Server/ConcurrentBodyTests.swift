// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import Foundation
import Streams
import XCTest
@testable import HTTP
import HTTPTestSupport

/// A body stream that starts synchronously on the connection's loop and continues
/// from another thread must arrive whole and in order: its end, emitted on the loop,
/// must not overtake values still queued for the loop from the other thread.
final class ConcurrentBodyTests: XCTestCase {
    func testABodyContinuedFromAnotherThreadArrivesWholeOnEveryRequest() throws {
        var router = Router()
        router.get("/s") { _ in
            let continued = DataStream<[UInt8]> { watcher in
                DispatchQueue.global().async {
                    watcher.data(Array("a".utf8))
                    watcher.data(Array("b".utf8))
                    watcher.end()
                }
                return Disposable()
            }
            return .just(.stream(DataStream.concat(DataStream.just(Array("p".utf8)), continued), contentType: "text/plain"))
        }
        let server = try TestServer(router: router)
        let client = try server.client()
        for attempt in 0..<1000 {
            try client.send("GET /s HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try client.readResponse()
            XCTAssertEqual(response.bodyText, "pab", "request \(attempt)")
            if response.bodyText != "pab" { break }
        }
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import TracingTestSupport
import XCTest
@testable import Server

/// With `--redis-url`, a traced request's pipeline events keep its trace id on every replica
/// (it rides in the event's JSON through the shared stream).
final class SharedFeedTracingTests: XCTestCase {
    func testAnEventOfATracedRunOnOneReplicaCarriesItsTraceIdOnAnother() throws {
        let tracer = W3CTestTracer()
        let set = try ReplicaSet(self, count: 2, tracer: tracer)
        let client = try set.subscribe(to: 1, pipeline: "users")
        let caller = W3C.callerTraceparent()
        XCTAssertEqual(try set[0].get("/users?limit=1", headers: ["traceparent": caller.header]).status, 200)
        let event = try XCTUnwrap(client.events(1).first)
        XCTAssertEqual(event.json["replica"] as? String, "replica-0")
        XCTAssertEqual(event.json["traceId"] as? String, caller.traceID)
        let server = try XCTUnwrap(RecordedTrace(tracer, traceID: caller.traceID, test: self).server)
        XCTAssertEqual(server.parentSpanID, caller.parentSpanID)
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import NetCore
import Streams
import XCTest
@testable import Server
import HTTP
import HTTPTestSupport

final class ReadinessRouteTests: XCTestCase {
    private func status(probe: Single<Bool>, shuttingDown: Bool = false, draining: Bool = false) -> Int? {
        var route = ReadinessRoute(probe: { probe }, isShuttingDown: { shuttingDown })
        route.isDraining = { draining }
        let status = Locked<Int?>(nil)
        route.handle(Request(method: .get, target: "/ready")).watch(data: { response in status.withLock { $0 = response.status.code } })
        return status.withLock { $0 }
    }

    func testReadyWhenTheProbeSucceeds() {
        XCTAssertEqual(status(probe: .just(true)), 200)
    }

    func testNotReadyWhenTheProbeSaysUnreachable() {
        XCTAssertEqual(status(probe: .just(false)), 503)
    }

    func testNotReadyWhenTheProbeFails() {
        XCTAssertEqual(status(probe: .just(error: CancellationError())), 503)
    }

    func testNotReadyWhileShuttingDownWithoutAskingTheUpstream() {
        XCTAssertEqual(status(probe: DataStream.never().asSingle(), shuttingDown: true), 503)
    }

    func testNotReadyWhileDrainingWithoutAskingTheUpstream() {
        XCTAssertEqual(status(probe: DataStream.never().asSingle(), draining: true), 503)
    }
}

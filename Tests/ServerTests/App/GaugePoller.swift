// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import XCTest

/// Scrapes `/metrics` on a timer until `metric` shows `expected` (or more, with
/// `orMore`), then fulfils the
/// expectation: how a test waits for the server to notice something
/// asynchronous (a client went away) without sleeping a fixed time.
final class GaugePoller: @unchecked Sendable {
    // @unchecked: `timer` is touched only on `queue`.
    private let port: Int
    private let metric: String
    private let expected: Int
    private let orMore: Bool
    private let expectation: XCTestExpectation
    private let queue = DispatchQueue(label: "gauge-poller")
    private var timer: DispatchSourceTimer?

    init(port: Int, metric: String, expected: Int, orMore: Bool = false, fulfil expectation: XCTestExpectation) {
        self.port = port
        self.metric = metric
        self.expected = expected
        self.orMore = orMore
        self.expectation = expectation
    }

    func start() {
        queue.async { [self] in
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now(), repeating: .milliseconds(20))
            timer.setEventHandler { [self] in check() }
            self.timer = timer
            timer.activate()
        }
    }

    private func check() {
        guard let client = try? RawHTTPClient(port: port, timeout: 2),
              (try? client.send("GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")) != nil,
              let page = try? client.readResponse()
        else { return }
        guard let value = PrometheusSample.value(of: metric, in: page.bodyText) else { return }
        if value == Double(expected) || (orMore && value > Double(expected)) {
            timer?.cancel()
            timer = nil
            expectation.fulfill()
        }
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTPTestSupport
import Telemetry
import Tracing
import XCTest

/// Retries on 429/502/503/504 with back-off or `Retry-After`, on virtual time, against a real receiver.
final class ExportRetryTests: XCTestCase {
    func testTwo503sAreRetriedWithGrowingBackOffThenDelivered() throws {
        let rig = ExportRig(receiver: try OTLPReceiver(answers: "503,503"))
        _ = rig.requestLikeTrace()
        rig.passScheduleDelay()
        let first = try waitForRetry(rig, attempts: 1)
        XCTAssertTrue(first > .milliseconds(500) && first <= .seconds(1), "\(first)")
        rig.scheduler.advance(by: first)
        let second = try waitForRetry(rig, attempts: 2)
        XCTAssertTrue(second > .seconds(1) && second <= .seconds(2), "\(second)")
        rig.scheduler.advance(by: second)
        waitUntil("the third attempt delivered", timeout: 10) { rig.counters.totals.exported == 2 }
        XCTAssertEqual(rig.receiver!.requests.map(\.status), [503, 503, 200])
        XCTAssertEqual(rig.receiver!.spans.count, 2)
        XCTAssertEqual(rig.counters.totals.failures, 0)
    }

    func testA429sRetryAfterIsWaitedForExactly() throws {
        let rig = ExportRig(receiver: try OTLPReceiver(answers: "429:3"))
        _ = rig.requestLikeTrace()
        rig.passScheduleDelay()
        XCTAssertEqual(try waitForRetry(rig, attempts: 1), .seconds(3))
        rig.scheduler.advance(by: .milliseconds(2999))
        XCTAssertEqual(rig.pipeline.exporter.progressSoFar.attempts, 1, "not before Retry-After")
        rig.scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(rig.pipeline.exporter.progressSoFar.attempts, 2)
        waitUntil("the retry delivered", timeout: 10) { rig.counters.totals.exported == 2 }
        XCTAssertEqual(rig.receiver!.requests.map(\.status), [429, 200])
    }

    func testA400IsNotRetriedAndTheBatchIsCountedAsDropped() throws {
        let rig = ExportRig(receiver: try OTLPReceiver(answers: "400"))
        _ = rig.requestLikeTrace()
        rig.passScheduleDelay()
        waitUntil("the failure is counted", timeout: 10) { rig.counters.totals.failures == 1 }
        XCTAssertEqual(rig.pipeline.exporter.progressSoFar.lastDecision, .giveUp)
        XCTAssertEqual(rig.counters.totals.dropped, 2)
        XCTAssertEqual(rig.receiver!.requests.count, 1)
    }

    func testTheRetryRules() {
        let retry = ExportRetry()
        for status in [429, 502, 503, 504] {
            XCTAssertEqual(retry.decide(after: 1, .answered(status: status, retryAfter: nil)), .retry(after: .seconds(1)), "\(status)")
        }
        for status in [400, 401, 404, 413, 500, 501] {
            XCTAssertEqual(retry.decide(after: 1, .answered(status: status, retryAfter: nil)), .giveUp, "\(status)")
        }
        XCTAssertEqual(retry.decide(after: 1, .answered(status: 200, retryAfter: nil)), .delivered)
        XCTAssertEqual(retry.decide(after: 1, .noAnswer), .retry(after: .seconds(1)))
        XCTAssertEqual(retry.decide(after: 4, .noAnswer), .retry(after: .seconds(8)))
        XCTAssertEqual(retry.decide(after: 5, .noAnswer), .giveUp, "five attempts in all")
        XCTAssertEqual(retry.decide(after: 1, .answered(status: 503, retryAfter: "7")), .retry(after: .seconds(7)))
        XCTAssertEqual(retry.decide(after: 1, .answered(status: 503, retryAfter: "3600")), .giveUp, "beyond maxRetryAfter")
        XCTAssertEqual(retry.decide(after: 1, .answered(status: 503, retryAfter: "Wed, 21 Oct 2037 07:28:00 GMT")), .retry(after: .seconds(1)), "a date falls back to the back-off")
        XCTAssertEqual(retry.decide(after: 2, .noAnswer, jitter: 1), .retry(after: .seconds(1)), "jitter takes off up to half")
    }

    /// Waits until attempt `attempts` has been answered with a retry; returns its delay.
    private func waitForRetry(_ rig: ExportRig, attempts: Int) throws -> Duration {
        waitUntil("attempt \(attempts) answered with a retry", timeout: 10) {
            let progress = rig.pipeline.exporter.progressSoFar
            if progress.decisions == attempts, case .retry = progress.lastDecision { return true }
            return false
        }
        guard case .retry(let delay) = rig.pipeline.exporter.progressSoFar.lastDecision else { throw XCTSkip("unreachable") }
        return delay
    }
}

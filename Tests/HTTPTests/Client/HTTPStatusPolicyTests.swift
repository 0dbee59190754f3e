// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTP
import HTTPTestSupport
import StreamServiceConcurrency
import Streams
import XCTest

/// `HTTPClient`'s status policy against a real server on 127.0.0.1, and `retry` with
/// `RetryBackoff.honouringRetryAfter` waiting on virtual time: the server's answers are real,
/// the waits between them are the `TestScheduler`'s.
final class HTTPStatusPolicyTests: XCTestCase {
    /// A server answering `/flaky` with `failures` in turn, then 200 "ok"; it counts the requests.
    private final class Upstream {
        let server: TestServer
        private let calls = Locked(0)

        init(failures: [(status: HTTPStatus, retryAfter: String?)]) throws {
            var router = Router()
            let calls = self.calls
            router.get("/flaky") { _ in
                let call = calls.withLock { count in
                    count += 1
                    return count
                }
                guard call <= failures.count else { return .just(.text("ok")) }
                let failure = failures[call - 1]
                var response = Response.text("busy", status: failure.status)
                if let retryAfter = failure.retryAfter { response.headers.add(name: "Retry-After", value: retryAfter) }
                return .just(response)
            }
            server = try TestServer(router: router)
        }

        var requests: Int { calls.withLock { $0 } }
        var request: HTTPClientRequest { HTTPClientRequest(url: URL(string: "http://127.0.0.1:\(server.port)/flaky")!) }
    }

    /// What the subscriber of one retried exchange saw, and how many attempts were subscribed.
    private final class Outcome: Sendable {
        private let state = Locked<(attempts: Int, response: HTTPClientResponse?, error: (any Error)?)>((0, nil, nil))

        func attempted() { state.withLock { $0.attempts += 1 } }
        func answered(_ response: HTTPClientResponse) { state.withLock { $0.response = response } }
        func failed(_ error: any Error) { state.withLock { $0.error = error } }

        var attempts: Int { state.withLock { $0.attempts } }
        var response: HTTPClientResponse? { state.withLock { $0.response } }
        var error: (any Error)? { state.withLock { $0.error } }
        var isOver: Bool { state.withLock { $0.response != nil || $0.error != nil } }
    }

    private let scheduler = TestScheduler()
    private let bag = DisposeBag()

    /// Sends `upstream.request` through `client`, retried `maxRetries` times with `backoff` on the
    /// virtual clock; the attempts are counted as they are subscribed.
    private func send(
        _ upstream: Upstream, via client: HTTPClient = HTTPClient(statusPolicy: .failRetryable), maxRetries: Int = 3,
        backoff: RetryBackoff = .honouringRetryAfter(jitter: 0)
    ) -> Outcome {
        let outcome = Outcome()
        let request = upstream.request
        DataStream.deferred { () -> DataStream<HTTPClientResponse> in
            outcome.attempted()
            return client.send(request)
        }
        .retry(maxRetries, backoff: backoff, scheduler: scheduler)
        .watch(data: { outcome.answered($0) }, error: { outcome.failed($0) })
        .disposed(by: bag)
        return outcome
    }

    /// Waits (real time) until the attempt in flight has failed and its retry waits on the virtual clock.
    private func waitForTheRetryToWait(_ outcome: Outcome, file: StaticString = #filePath, line: UInt = #line) {
        waitUntil("a retry waits on the virtual clock", timeout: 5) { [scheduler] in scheduler.pendingCount == 1 || outcome.isOver }
        XCTAssertFalse(outcome.isOver, "the exchange ended instead of waiting to retry", file: file, line: line)
    }

    private func waitForTheEnd(_ outcome: Outcome) {
        waitUntil("the exchange ends", timeout: 5) { outcome.isOver }
    }

    func testA503WithRetryAfterTwoIsRetriedAfterExactlyTwoSeconds() throws {
        let upstream = try Upstream(failures: [(.serviceUnavailable, "2")])
        let outcome = send(upstream)
        waitForTheRetryToWait(outcome)
        scheduler.advance(to: .milliseconds(1_999))
        XCTAssertEqual(outcome.attempts, 1, "not retried before the 2 s the server asked for")
        scheduler.advance(to: .seconds(2))
        XCTAssertEqual(outcome.attempts, 2, "retried at 2 s")
        waitForTheEnd(outcome)
        XCTAssertEqual(outcome.response?.body, Array("ok".utf8))
        XCTAssertEqual(upstream.requests, 2)
    }

    func testAnHTTPDateRetryAfterIsWaitedUntil() throws {
        // Three whole seconds past the current one: between two and three seconds from now.
        let date = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) + 3)
        let upstream = try Upstream(failures: [(.serviceUnavailable, Self.imfFixdate(date))])
        let waits = Locked<[Duration]>([])
        let outcome = send(upstream, backoff: .honouringRetryAfter(jitter: 0, onRetry: { retry in waits.withLock { $0.append(retry.delay) } }))
        waitForTheRetryToWait(outcome)
        // The wait is counted from the answer's arrival, so it is known only now.
        let wait = try XCTUnwrap(waits.withLock { $0.first })
        XCTAssertTrue((.seconds(1)...(.seconds(3))).contains(wait), "\(wait) is the time until the date, not a back-off")
        scheduler.advance(to: wait - .milliseconds(1))
        XCTAssertEqual(outcome.attempts, 1, "not retried before the date")
        scheduler.advance(to: wait)
        XCTAssertEqual(outcome.attempts, 2, "retried at the date")
        waitForTheEnd(outcome)
        XCTAssertEqual(outcome.response?.status, .ok)
    }

    func testA429IsRetriedAfterItsRetryAfter() throws {
        let upstream = try Upstream(failures: [(.tooManyRequests, "1")])
        let outcome = send(upstream)
        waitForTheRetryToWait(outcome)
        scheduler.advance(to: .milliseconds(999))
        XCTAssertEqual(outcome.attempts, 1)
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(outcome.attempts, 2)
        waitForTheEnd(outcome)
        XCTAssertEqual(outcome.response?.status, .ok)
    }

    func testA5xxWithoutRetryAfterWaitsTheBackoff() throws {
        let upstream = try Upstream(failures: [(.badGateway, nil), (.internalServerError, nil)])
        let outcome = send(upstream, backoff: .honouringRetryAfter(initialDelay: .milliseconds(300), multiplier: 2, jitter: 0))
        waitForTheRetryToWait(outcome)
        scheduler.advance(to: .milliseconds(299))
        XCTAssertEqual(outcome.attempts, 1)
        scheduler.advance(to: .milliseconds(300))
        XCTAssertEqual(outcome.attempts, 2, "the first back-off: 300 ms")
        waitForTheRetryToWait(outcome)
        scheduler.advance(to: .milliseconds(899))
        XCTAssertEqual(outcome.attempts, 2)
        scheduler.advance(to: .milliseconds(900))
        XCTAssertEqual(outcome.attempts, 3, "the second back-off: 600 ms more")
        waitForTheEnd(outcome)
        XCTAssertEqual(outcome.response?.status, .ok)
    }

    func testABadRetryAfterIsIgnoredAndTheBackoffWaited() throws {
        let upstream = try Upstream(failures: [(.serviceUnavailable, "in a while")])
        let outcome = send(upstream, backoff: .honouringRetryAfter(initialDelay: .milliseconds(100), jitter: 0))
        waitForTheRetryToWait(outcome)
        scheduler.advance(to: .milliseconds(100))
        XCTAssertEqual(outcome.attempts, 2)
        waitForTheEnd(outcome)
        XCTAssertEqual(outcome.response?.status, .ok)
    }

    func testAttemptsAreBoundedThenTheTypedErrorReachesTheSubscriber() throws {
        let upstream = try Upstream(failures: Array(repeating: (.serviceUnavailable, "1"), count: 10))
        let outcome = send(upstream, maxRetries: 2)
        for _ in 1...2 {
            waitForTheRetryToWait(outcome)
            scheduler.advance(by: .seconds(1))
        }
        waitForTheEnd(outcome)
        XCTAssertEqual(upstream.requests, 3, "the first attempt and two retries")
        let error = try XCTUnwrap(outcome.error as? HTTPStatusError, "\(String(describing: outcome.error))")
        XCTAssertEqual(error.status, .serviceUnavailable)
        XCTAssertEqual(error.retryAfter, .seconds(1))
        XCTAssertEqual(error.response.body, Array("busy".utf8))
        XCTAssertEqual(error.response.header("content-type"), "text/plain; charset=utf-8")
    }

    func testARetryAfterBeyondTheTotalWaitIsNotWaited() throws {
        let upstream = try Upstream(failures: [(.serviceUnavailable, "1"), (.serviceUnavailable, "20")])
        let outcome = send(upstream, backoff: .honouringRetryAfter(jitter: 0, maxTotalWait: .seconds(10)))
        waitForTheRetryToWait(outcome)
        scheduler.advance(by: .seconds(1))
        waitForTheEnd(outcome)
        XCTAssertEqual(upstream.requests, 2, "1 s waited; 20 s more would pass the 10 s bound")
        XCTAssertEqual((outcome.error as? HTTPStatusError)?.retryAfter, .seconds(20))
        XCTAssertEqual(scheduler.pendingCount, 0, "no wait left behind")
    }

    func testByDefaultEveryStatusIsAResponse() throws {
        let upstream = try Upstream(failures: [(.serviceUnavailable, "2")])
        let outcome = send(upstream, via: HTTPClient())
        waitForTheEnd(outcome)
        XCTAssertEqual(outcome.response?.status, .serviceUnavailable)
        XCTAssertEqual(outcome.response?.header("Retry-After"), "2")
        XCTAssertNil(outcome.error)
        XCTAssertEqual(upstream.requests, 1, "an answer is no error: nothing to retry")
    }

    func testA4xxOtherThan429IsAResponse() throws {
        for status in [HTTPStatus.badRequest, .notFound, .forbidden, .conflict] {
            let upstream = try Upstream(failures: [(status, "1")])
            let outcome = send(upstream)
            waitForTheEnd(outcome)
            XCTAssertEqual(outcome.response?.status, status)
            XCTAssertNil(outcome.error, "\(status)")
            XCTAssertEqual(upstream.requests, 1)
        }
    }

    func testAPolicyOfItsOwnFailsTheStatusesItNames() throws {
        let upstream = try Upstream(failures: [(.notFound, nil)])
        let outcome = send(upstream, via: HTTPClient(statusPolicy: HTTPStatusPolicy { $0 == .notFound }), maxRetries: 0)
        waitForTheEnd(outcome)
        XCTAssertEqual((outcome.error as? HTTPStatusError)?.status, .notFound)
        XCTAssertNil((outcome.error as? HTTPStatusError)?.retryAfter)
    }

    /// An error in a caller's terms, as `send(_:answer:errors:)` makes one.
    private struct Classified: Error {
        let underlying: any Error
    }

    /// The first event of `stream`, waited for in real time.
    private func firstEvent<Element: Sendable>(of stream: DataStream<Element>) -> Result<Element, any Error>? {
        let event = Locked<Result<Element, any Error>?>(nil)
        stream.watch(data: { value in event.withLock { $0 = .success(value) } }, error: { error in event.withLock { $0 = .failure(error) } })
            .disposed(by: bag)
        waitUntil("the exchange ends", timeout: 5) { event.withLock { $0 != nil } }
        return event.withLock { $0 }
    }

    func testSendWithAnAnswerMapsTheResponseAsMapDoes() throws {
        let upstream = try Upstream(failures: [])
        let client = HTTPClient()
        let mapped = try XCTUnwrap(firstEvent(of: client.send(upstream.request, answer: { $0.status.code }, errors: { Classified(underlying: $0) })))
        let slowTwin = try XCTUnwrap(firstEvent(of: client.send(upstream.request).map({ $0.status.code }, errors: { Classified(underlying: $0) })))
        XCTAssertEqual(try mapped.get(), 200)
        XCTAssertEqual(try slowTwin.get(), 200)
    }

    func testSendWithErrorsClassifiesAFailedStatusAsMapDoes() throws {
        let upstream = try Upstream(failures: [(.notFound, nil), (.notFound, nil)])
        let client = HTTPClient(statusPolicy: HTTPStatusPolicy { $0 == .notFound })
        let mapped = try XCTUnwrap(firstEvent(of: client.send(upstream.request, answer: { $0.status.code }, errors: { Classified(underlying: $0) })))
        let slowTwin = try XCTUnwrap(firstEvent(of: client.send(upstream.request).map({ $0.status.code }, errors: { Classified(underlying: $0) })))
        for outcome in [mapped, slowTwin] {
            guard case .failure(let error) = outcome else { return XCTFail("answered \(outcome), not failed") }
            XCTAssertEqual(((error as? Classified)?.underlying as? HTTPStatusError)?.status, .notFound)
        }
    }

    /// `date` as an IMF-fixdate, by Foundation rather than the library's own formatter.
    private static func imfFixdate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

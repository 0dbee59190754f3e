// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import MetricsTestKit
import Streams
import StreamsTesting
import XCTest
@testable import Domain
@testable import DemoUpstream

final class InMemoryUpstreamCacheTests: XCTestCase {
    func entry(_ bytes: Int, etag: String = "\"e\"") -> UpstreamCacheEntry {
        UpstreamCacheEntry(UpstreamResponse(status: 200, headers: ["etag": etag], body: [UInt8](repeating: 1, count: bytes)))!
    }

    func key(_ path: String) -> UpstreamCacheKey { UpstreamCacheKey(url: "http://u.test\(path)", credential: "") }

    func testLeastRecentlyUsedEntriesGoFirstWhenTheBytesWouldOverflow() {
        let cache = InMemoryUpstreamCache(capacityBytes: 300)
        cache.store(entry(90), for: key("/a"))
        cache.store(entry(90), for: key("/b"))
        cache.store(entry(90), for: key("/c"))
        XCTAssertNotNil(cache.lookUp(key("/a")), "touching /a makes /b the oldest")
        cache.store(entry(90), for: key("/d"))
        XCTAssertNil(cache.lookUp(key("/b")))
        XCTAssertNotNil(cache.lookUp(key("/a")))
        XCTAssertNotNil(cache.lookUp(key("/c")))
        XCTAssertNotNil(cache.lookUp(key("/d")))
        XCTAssertLessThanOrEqual(cache.bytes, 300)
    }

    func testAnEntryLargerThanTheWholeCacheIsNotStored() {
        let cache = InMemoryUpstreamCache(capacityBytes: 100)
        cache.store(entry(500), for: key("/big"))
        XCTAssertEqual(cache.count, 0)
    }

    func testReplacingAnEntryKeepsTheByteCountExact() {
        let cache = InMemoryUpstreamCache(capacityBytes: 1000)
        cache.store(entry(100), for: key("/a"))
        cache.store(entry(200), for: key("/a"))
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.bytes, entry(200).size)
    }

    func testOnlyA200WithAValidatorIsCacheable() {
        XCTAssertNil(UpstreamCacheEntry(UpstreamResponse(status: 200, body: [1])))
        XCTAssertNil(UpstreamCacheEntry(UpstreamResponse(status: 404, headers: ["etag": "\"x\""])))
        XCTAssertNotNil(UpstreamCacheEntry(UpstreamResponse(status: 200, headers: ["last-modified": "Tue, 24 Nov 2026 09:00:00 GMT"])))
    }

    func testKeysTellTokensApartWithoutKeepingThem() {
        let url = URL(string: "http://u.test/users/ada1")!
        let anonymous = UpstreamCacheKey(UpstreamRequest(url: url))
        let alice = UpstreamCacheKey(UpstreamRequest(url: url, headers: ["Authorization": "Bearer alice"]))
        let bob = UpstreamCacheKey(UpstreamRequest(url: url, headers: ["Authorization": "Bearer bob"]))
        XCTAssertEqual(Set([anonymous, alice, bob]).count, 3)
        XCTAssertFalse(alice.credential.contains("alice"))
    }
}

final class CachingTransportTests: XCTestCase {
    let url = URL(string: "http://u.test/users/ada1")!

    func testSecondGetIsConditionalAndA304IsAnsweredWithTheStoredBody() throws {
        let transport = ScriptedTransport([
            .respond(UpstreamResponse(status: 200, headers: ["etag": "W/\"v1\"", "last-modified": "Mon", "x-ratelimit-remaining": "9"], body: Array("stored".utf8))),
            .respond(UpstreamResponse(status: 304, headers: ["etag": "W/\"v1\"", "x-ratelimit-remaining": "8"])),
        ])
        let recorded = TestMetrics()
        let caching = CachingTransport(transport, store: InMemoryUpstreamCache(), metrics: UpstreamMetrics(factory: recorded))
        let first = EventRecorder<UpstreamResponse>(), second = EventRecorder<UpstreamResponse>()
        first.watch(caching.send(UpstreamRequest(url: url)))
        second.watch(caching.send(UpstreamRequest(url: url)))
        XCTAssertNil(transport.requests[0].conditions["If-None-Match"])
        XCTAssertEqual(transport.requests[1].conditions["If-None-Match"], "W/\"v1\"")
        XCTAssertEqual(transport.requests[1].conditions["If-Modified-Since"], "Mon")
        XCTAssertEqual(second.values.first?.status, 200)
        XCTAssertEqual(second.values.first?.body, Array("stored".utf8))
        XCTAssertEqual(second.values.first?.header("x-ratelimit-remaining"), "8", "the 304's fresh headers")
        for (name, count) in [
            (UpstreamMetrics.cacheHitsName, 1), (UpstreamMetrics.cacheMissesName, 1), (UpstreamMetrics.cacheRevalidationsName, 1),
            (UpstreamMetrics.coalescedName, 0),
        ] {
            XCTAssertEqual(try recorded.expectCounter(name).totalValue, Int64(count), name)
        }
    }

    func testAConfirmedAnswerKeepsItsRepresentationFieldsAndTakesTheOthersFromThe304() {
        let stored = UpstreamCacheEntry(UpstreamResponse(
            status: 200, headers: ["Content-Type": "image/png", "ETag": "\"a\"", "X-RateLimit-Remaining": "9"], body: [1, 2]))!
        let notModified = UpstreamResponse(
            status: 304, received: ["content-type": "text/plain", "X-RateLimit-Remaining": "8", "X-Extra": "a", "x-extra": "b"], body: [])
        let answer = stored.response(confirmedBy: notModified)
        XCTAssertEqual(answer.header("Content-Type"), "image/png")
        XCTAssertEqual(answer.header("x-ratelimit-remaining"), "8")
        XCTAssertEqual(answer.header("X-Extra"), "a, b")
        XCTAssertEqual(answer.header("etag"), "\"a\"")
        XCTAssertEqual(answer.headers, ["content-type": "image/png", "etag": "\"a\"", "x-ratelimit-remaining": "8", "x-extra": "a, b"])
        XCTAssertEqual(answer.body, [1, 2])
    }

    func testAnswersForOneTokenAreNotRevalidatedForAnother() {
        let transport = ScriptedTransport([
            .respond(UpstreamResponse(status: 200, headers: ["etag": "\"a\""], body: [1])),
            .respond(UpstreamResponse(status: 200, headers: ["etag": "\"b\""], body: [2])),
        ])
        let caching = CachingTransport(transport, store: InMemoryUpstreamCache(), metrics: UpstreamMetrics())
        caching.send(UpstreamRequest(url: url, headers: ["Authorization": "Bearer a"])).watch { _ in }
        caching.send(UpstreamRequest(url: url, headers: ["Authorization": "Bearer b"])).watch { _ in }
        XCTAssertNil(transport.requests[1].conditions["If-None-Match"])
    }
}

final class SingleFlightTransportTests: XCTestCase {
    func testConcurrentIdenticalGetsShareOneRequest() throws {
        let scheduler = TestScheduler()
        let upstream = DemoUpstream(configuration: .init(users: 5, latency: .milliseconds(100)), scheduler: scheduler)
        let recorded = TestMetrics()
        let transport = SingleFlightTransport(DemoUpstreamTransport(upstream: upstream), metrics: UpstreamMetrics(factory: recorded))
        let request = UpstreamRequest(url: URL(string: "http://demo.test/users/ada1")!)
        let recorders = (0..<5).map { _ in EventRecorder<UpstreamResponse>() }
        for recorder in recorders { recorder.watch(transport.send(request)) }
        scheduler.advance(by: .milliseconds(100))
        XCTAssertEqual(recorders.map { $0.values.first?.status }, Array(repeating: 200, count: 5))
        XCTAssertEqual(upstream.statistics.requests, 1)
        XCTAssertEqual(try recorded.expectCounter(UpstreamMetrics.coalescedName).totalValue, 4)
        XCTAssertEqual(transport.inFlight, 0)
    }

    func testARequestAfterTheAnswerIsSentAgain() {
        let upstream = DemoUpstream(configuration: .init(users: 5))
        let transport = SingleFlightTransport(DemoUpstreamTransport(upstream: upstream), metrics: UpstreamMetrics())
        let request = UpstreamRequest(url: URL(string: "http://demo.test/users/ada1")!)
        transport.send(request).watch { _ in }
        transport.send(request).watch { _ in }
        XCTAssertEqual(upstream.statistics.requests, 2)
    }

    func testOneCallerLeavingDoesNotCancelTheOthers() {
        let scheduler = TestScheduler()
        let upstream = DemoUpstream(configuration: .init(users: 5, latency: .milliseconds(100)), scheduler: scheduler)
        let transport = SingleFlightTransport(DemoUpstreamTransport(upstream: upstream), metrics: UpstreamMetrics())
        let request = UpstreamRequest(url: URL(string: "http://demo.test/users/ada1")!)
        let leaving = transport.send(request).watch { _ in }
        let staying = EventRecorder<UpstreamResponse>()
        staying.watch(transport.send(request))
        leaving.dispose()
        scheduler.advance(by: .milliseconds(100))
        XCTAssertEqual(staying.values.first?.status, 200)
    }
}

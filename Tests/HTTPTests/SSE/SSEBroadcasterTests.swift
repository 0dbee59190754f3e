// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
@testable import NetCore
import Streams
import XCTest
@testable import HTTP
import HTTPTestSupport

final class SSEBroadcasterTests: XCTestCase {
    private func broadcaster(capacity: Int = 10) -> SSEBroadcaster<String> {
        SSEBroadcaster(capacity: capacity) { ServerSentEvent(data: $0) }
    }

    func testLiveSubscriberGetsEachItemNumberedInOrder() {
        let feed = broadcaster()
        let received = Received()
        let subscription = feed.subscribe().watch(data: received.append)
        feed.publish("a")
        feed.publish("b")
        XCTAssertEqual(received.text, "id: 1\ndata: a\n\nid: 2\ndata: b\n\n")
        subscription.dispose()
    }

    func testEveryAdmittingSubscriberGetsTheSameEncodedBytes() {
        let encodings = Locked(0)
        let feed = SSEBroadcaster<String>(capacity: 4) { item in
            encodings.withLock { $0 += 1 }
            return ServerSentEvent(data: item)
        }
        let first = Received(), second = Received()
        let subscriptions = [feed.subscribe().watch(data: first.append), feed.subscribe().watch(data: second.append)]
        feed.publish("x")
        XCTAssertEqual(first.text, second.text)
        XCTAssertEqual(encodings.withLock { $0 }, 1, "encoded once, not once per subscriber")
        subscriptions.forEach { $0.dispose() }
    }

    func testItemsPublishedWithNobodyWatchingAreEncodedOnlyWhenAResumeAsks() {
        let encodings = Locked(0)
        let feed = SSEBroadcaster<String>(capacity: 4) { item in
            encodings.withLock { $0 += 1 }
            return ServerSentEvent(data: item)
        }
        for item in ["a", "b", "c"] { feed.publish(item) }
        XCTAssertEqual(encodings.withLock { $0 }, 0, "nobody watched")
        let received = Received()
        let subscription = feed.subscribe(after: 1).watch(data: received.append)
        XCTAssertEqual(received.text, "id: 2\ndata: b\n\nid: 3\ndata: c\n\n")
        XCTAssertEqual(encodings.withLock { $0 }, 2, "only the replayed items")
        subscription.dispose()
    }

    func testFilterDecidesWhichItemsASubscriberGets() {
        let feed = broadcaster()
        let received = Received()
        let subscription = feed.subscribe(where: { $0.hasPrefix("keep") }).watch(data: received.append)
        feed.publish("keep 1")
        feed.publish("drop")
        feed.publish("keep 2")
        XCTAssertEqual(received.text, "id: 1\ndata: keep 1\n\nid: 3\ndata: keep 2\n\n")
        subscription.dispose()
    }

    func testResumeReplaysOnlyItemsAfterTheLastSeenIdThenContinuesLive() {
        let feed = broadcaster()
        for item in ["a", "b", "c"] { feed.publish(item) }
        let received = Received()
        let subscription = feed.subscribe(after: 1).watch(data: received.append)
        feed.publish("d")
        XCTAssertEqual(received.text, "id: 2\ndata: b\n\nid: 3\ndata: c\n\nid: 4\ndata: d\n\n")
        subscription.dispose()
    }

    func testResumeOlderThanTheBufferStartsWithReset() {
        let feed = broadcaster(capacity: 2)
        for item in ["a", "b", "c", "d"] { feed.publish(item) }
        let received = Received()
        let subscription = feed.subscribe(after: 1).watch(data: received.append)
        XCTAssertEqual(received.text, "id: 2\nevent: reset\ndata: {\"oldestAvailableId\":3}\n\nid: 3\ndata: c\n\nid: 4\ndata: d\n\n")
        subscription.dispose()
    }

    func testResumeRightBeforeTheOldestBufferedItemNeedsNoReset() {
        let feed = broadcaster(capacity: 2)
        for item in ["a", "b", "c", "d"] { feed.publish(item) }
        let received = Received()
        let subscription = feed.subscribe(after: 2).watch(data: received.append)
        XCTAssertFalse(received.text.contains("reset"))
        subscription.dispose()
    }

    func testResumeFromAnIdNewerThanAnyPublishedGetsResetThenTheWholeBuffer() {
        let feed = broadcaster()
        feed.publish("a")
        feed.publish("b")
        let received = Received()
        let subscription = feed.subscribe(after: 500).watch(data: received.append)
        XCTAssertEqual(received.text, "id: 0\nevent: reset\ndata: {\"oldestAvailableId\":1}\n\nid: 1\ndata: a\n\nid: 2\ndata: b\n\n")
        subscription.dispose()
    }

    func testResumeFromTheLargestIdGetsResetInsteadOfTrapping() {
        let feed = broadcaster(capacity: 2)
        for item in ["a", "b", "c"] { feed.publish(item) }
        let received = Received()
        let subscription = feed.subscribe(after: .max).watch(data: received.append)
        XCTAssertEqual(received.text, "id: 1\nevent: reset\ndata: {\"oldestAvailableId\":2}\n\nid: 2\ndata: b\n\nid: 3\ndata: c\n\n")
        subscription.dispose()
    }

    func testResumeFromTheSmallestIdGetsResetInsteadOfTrapping() {
        let feed = broadcaster(capacity: 2)
        for item in ["a", "b", "c"] { feed.publish(item) }
        let received = Received()
        let subscription = feed.subscribe(after: .min).watch(data: received.append)
        XCTAssertTrue(received.text.hasPrefix("id: 1\nevent: reset\n"), received.text)
        subscription.dispose()
    }

    func testResumeFromTheLargestIdOnAnEmptyFeedGetsReset() {
        let feed = broadcaster()
        let received = Received()
        let subscription = feed.subscribe(after: .max).watch(data: received.append)
        XCTAssertEqual(received.text, "id: 0\nevent: reset\ndata: {\"oldestAvailableId\":1}\n\n")
        subscription.dispose()
    }

    func testASharedFeedIdOfIntMaxIsRefusedSoTheNextIdStaysRepresentable() {
        let feed = broadcaster()
        let received = Received()
        let subscription = feed.subscribe().watch(data: received.append)
        feed.publish("a", id: 1)
        feed.publish("huge", id: .max)
        feed.publish("b")
        XCTAssertEqual(feed.lastID, 2)
        XCTAssertEqual(received.text, "id: 1\ndata: a\n\nid: 2\ndata: b\n\n")
        subscription.dispose()
    }

    func testARestartAtTheLargestIdStillNumbersTheNextItem() {
        let feed = broadcaster()
        feed.restart(at: .max)
        feed.publish("a")
        XCTAssertEqual(feed.lastID, .max - 1, "the restart keeps the next id representable; the item after it is refused, not trapped on")
    }

    func testResetCarriesTheIdBeforeTheOldestBufferedItemSoAReconnectResumesThere() {
        let feed = broadcaster(capacity: 2)
        for item in ["a", "b", "c", "d"] { feed.publish(item) }
        let first = Received()
        feed.subscribe(after: 1).take(1).watch(data: first.append).dispose()
        XCTAssertTrue(first.text.hasPrefix("id: 2\nevent: reset\n"), first.text)
        let resumed = Received()
        let subscription = feed.subscribe(after: 2).watch(data: resumed.append)
        XCTAssertEqual(resumed.text, "id: 3\ndata: c\n\nid: 4\ndata: d\n\n")
        subscription.dispose()
    }

    func testDisposedSubscriberIsRemoved() {
        let feed = broadcaster()
        let subscription = feed.subscribe().watch(data: { _ in })
        XCTAssertEqual(feed.subscriberCount, 1)
        subscription.dispose()
        XCTAssertEqual(feed.subscriberCount, 0)
    }

    func testEndFinishesEverySubscriber() {
        let feed = broadcaster()
        let ended = expectation(description: "ended")
        let subscription = feed.subscribe().watch(end: { ended.fulfill() })
        feed.end()
        wait(for: [ended], timeout: 1)
        subscription.dispose()
    }

    func testConcurrentPublishersAndSubscribersNeverReorderOrDuplicate() {
        let feed = broadcaster(capacity: 10_000)
        let received = Received()
        let subscription = feed.subscribe().watch(data: received.append)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in 0..<250 { feed.publish("\(worker)-\(index)") }
        }
        let ids = received.text.split(separator: "\n").filter { $0.hasPrefix("id: ") }.map { Int($0.dropFirst(4))! }
        XCTAssertEqual(ids, Array(1...1000))
        subscription.dispose()
    }

    func testSubscribersOnEventLoopsGetEveryItemInOrderOnTheirOwnLoop() {
        let feed = broadcaster(capacity: 1)
        let loops = [EventLoop(label: "test.a"), EventLoop(label: "test.b")]
        let offLoop = Locked(0)
        let received = (0..<4).map { _ in Received() }
        let allEnded = expectation(description: "every subscriber ended")
        allEnded.expectedFulfillmentCount = received.count
        let subscriptions = Locked<[Disposable]>([])
        let subscribed = DispatchGroup()
        for (index, sink) in received.enumerated() {
            let loop = loops[index % loops.count]
            subscribed.enter()
            loop.execute {
                let subscription = feed.subscribe(on: loop).watch(
                    data: { bytes in
                        if !loop.inLoop { offLoop.withLock { $0 += 1 } }
                        sink.append(bytes)
                    },
                    end: { allEnded.fulfill() }
                )
                subscriptions.withLock { $0.append(subscription) }
                subscribed.leave()
            }
        }
        subscribed.wait()
        for item in 1...200 { feed.publish("\(item)") }
        feed.end()
        wait(for: [allEnded], timeout: 5)
        let expected = (1...200).map { "id: \($0)\ndata: \($0)\n\n" }.joined()
        for sink in received { XCTAssertEqual(sink.text, expected) }
        XCTAssertEqual(offLoop.withLock { $0 }, 0, "delivered off the subscriber's loop")
        subscriptions.withLock { $0.forEach { $0.dispose() } }
    }

    func testLoopSubscribersGetAnItemInsideOneWriteBatch() {
        // Every write made while a loop's subscribers get an item waits for the batch's end, so a
        // connection whose HTTP/2 streams all subscribe sends the item with one system call.
        let feed = broadcaster(capacity: 1)
        let loop = EventLoop(label: "test.batch")
        let batched = Locked<[Bool]>([])
        let delivered = expectation(description: "both subscribers got the item")
        delivered.expectedFulfillmentCount = 2
        let subscriptions = Locked<[Disposable]>([])
        let subscribed = DispatchGroup()
        subscribed.enter()
        loop.execute {
            for _ in 0..<2 {
                let subscription = feed.subscribe(on: loop).watch(data: { _ in
                    batched.withLock { $0.append(loop.isBatchingWrites) }
                    delivered.fulfill()
                })
                subscriptions.withLock { $0.append(subscription) }
            }
            subscribed.leave()
        }
        subscribed.wait()
        feed.publish("x")
        wait(for: [delivered], timeout: 5)
        XCTAssertEqual(batched.withLock { $0 }, [true, true])
        subscriptions.withLock { $0.forEach { $0.dispose() } }
    }

    func testLoopSubscriberJoiningMidFeedGetsEachLaterItemOnce() {
        let feed = broadcaster(capacity: 10_000)
        let loop = EventLoop(label: "test.join")
        let received = Received()
        let ended = expectation(description: "ended")
        let joined = Locked<(lastSeen: Int, subscription: Disposable)?>(nil)
        let publisher = DispatchQueue(label: "test.publisher")
        let published = DispatchGroup()
        publisher.async(group: published) { for item in 1...5_000 { feed.publish("\(item)") } }
        // Joins while the publisher runs, resuming after whatever was the last item at that moment.
        loop.execute {
            let lastSeen = feed.lastID
            let subscription = feed.subscribe(after: lastSeen, on: loop).watch(data: received.append, end: { ended.fulfill() })
            joined.withLock { $0 = (lastSeen, subscription) }
        }
        published.wait()
        // The feed ends only after the subscriber joined (a slow loop thread may join after the last item).
        let deadline = Date().addingTimeInterval(5)
        while joined.withLock({ $0 == nil }), Date() < deadline { usleep(1_000) }
        publisher.async { feed.end() }
        wait(for: [ended], timeout: 5)
        let ids = received.text.split(separator: "\n").filter { $0.hasPrefix("id: ") }.map { Int($0.dropFirst(4))! }
        let lastSeen = joined.withLock { $0?.lastSeen ?? 0 }
        XCTAssertEqual(ids, Array(lastSeen + 1 ..< 5_001), "each item after the one last seen, once, in order")
        joined.withLock { $0?.subscription.dispose() }
    }
}

/// Collects the bytes a watcher receives.
final class Received: Sendable {
    private let bytes = Locked<[UInt8]>([])
    var text: String { String(decoding: bytes.withLock { $0 }, as: UTF8.self) }
    @Sendable func append(_ chunk: [UInt8]) { bytes.withLock { $0 += chunk } }
}

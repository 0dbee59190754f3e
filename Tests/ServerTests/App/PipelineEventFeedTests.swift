// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import StreamServiceConcurrency
import Streams
import XCTest
@testable import Server

/// How the `/events` feed takes the hub's pipeline events: left in the hub while no client is
/// connected and caught up, in order, when needed; through the feed's scheduler while one is,
/// never out of order.
final class PipelineEventRelayTests: XCTestCase {
    private func event(_ stage: String) -> PipelineEvent {
        PipelineEvent(kind: .data, pipeline: "users", requestId: "r", stage: stage)
    }

    /// The stages of the events in the received bytes, in order (a tick as "tick K").
    private func stages(_ chunks: [[UInt8]]) -> [String] {
        let text = chunks.map { String(decoding: $0, as: UTF8.self) }.joined()
        return text.split(separator: "\n").filter { $0.hasPrefix("data: ") }.compactMap { line in
            if line.hasPrefix("data: tick ") { return String(line.dropFirst("data: ".count)) }
            guard let start = line.firstRange(of: #""stage":""#)?.upperBound else { return nil }
            return String(line[start...].prefix { $0 != "\"" })
        }
    }

    /// The SSE ids in the received bytes, in order.
    private func ids(_ chunks: [[UInt8]]) -> [Int] {
        let text = chunks.map { String(decoding: $0, as: UTF8.self) }.joined()
        return text.split(separator: "\n").filter { $0.hasPrefix("id: ") }.compactMap { Int($0.dropFirst("id: ".count)) }
    }

    /// Everything a client resuming after `lastSeen` is replayed.
    private func replay(_ feed: PipelineEventFeed, after lastSeen: Int = 0) -> [[UInt8]] {
        let replay = Locked<[[UInt8]]>([])
        feed.subscribe(after: lastSeen).watch(data: { bytes in replay.withLock { $0.append(bytes) } }).dispose()
        return replay.withLock { $0 }
    }

    func testWithoutClientsEventsStayInTheHubUntilTheFeedIsAsked() {
        let hub = PipelineEventHub()
        let feed = PipelineEventFeed(hub: hub)
        let running = feed.start(clock: nil, scheduler: TestScheduler())
        defer { running.dispose() }

        hub.publish(event("a"))
        hub.publish(event("b"))

        XCTAssertEqual(feed.broadcaster.lastID, 0, "not relayed while nobody watches")
        XCTAssertEqual(hub.subscriberCount, 0, "the feed is not subscribed to the hub")
        XCTAssertEqual(feed.lastID, 2, "caught up when asked")
    }

    func testAClientResumingGetsTheEventsPublishedWhileNobodyWatchedInOrderWithTheirIds() {
        let hub = PipelineEventHub()
        let feed = PipelineEventFeed(hub: hub)
        let running = feed.start(clock: nil, scheduler: TestScheduler())
        defer { running.dispose() }
        for stage in ["a", "b", "c"] { hub.publish(event(stage)) }

        let replayed = replay(feed, after: 1)

        XCTAssertEqual(stages(replayed), ["b", "c"])
        XCTAssertEqual(ids(replayed), [2, 3])
    }

    func testClockTicksKeepTheirPlaceAmongEventsPublishedWhileNobodyWatched() {
        let hub = PipelineEventHub()
        let feed = PipelineEventFeed(hub: hub)
        let scheduler = TestScheduler()
        let running = feed.start(clock: .seconds(1), scheduler: scheduler)
        defer { running.dispose() }

        hub.publish(event("before-tick"))
        scheduler.advance(by: .seconds(1))
        hub.publish(event("after-tick"))

        let replayed = replay(feed)
        let ticks = stages(replayed).filter { $0.hasPrefix("tick ") }
        XCTAssertFalse(ticks.isEmpty)
        XCTAssertEqual(stages(replayed), ["before-tick"] + ticks + ["after-tick"])
        XCTAssertEqual(ids(replayed), Array(1...(ticks.count + 2)))
    }

    func testEventsBeyondTheReplayWindowWhileNobodyWatchedAreGoneAsIfRelayedAtOnce() {
        let hub = PipelineEventHub(replayCapacity: 3)
        let feed = PipelineEventFeed(hub: hub)
        let running = feed.start(clock: nil, scheduler: TestScheduler())
        defer { running.dispose() }
        for index in 1...5 { hub.publish(event("e\(index)")) }

        let replayed = replay(feed)

        XCTAssertEqual(stages(replayed), ["e3", "e4", "e5"])
        XCTAssertEqual(ids(replayed).suffix(3), [3, 4, 5])
    }

    func testWithAClientEventsWaitForTheSchedulerAndLaterOnesNeverOvertakeThem() {
        let hub = PipelineEventHub()
        let feed = PipelineEventFeed(hub: hub)
        let scheduler = TestScheduler()
        let running = feed.start(clock: nil, scheduler: scheduler)
        defer { running.dispose() }
        hub.publish(event("before"))
        let chunks = Locked<[[UInt8]]>([])
        let client = feed.subscribe().watch(data: { bytes in chunks.withLock { $0.append(bytes) } })
        XCTAssertEqual(feed.broadcaster.lastID, 1, "caught up before the client subscribed")

        hub.publish(event("queued-1"))
        hub.publish(event("queued-2"))
        XCTAssertEqual(feed.broadcaster.lastID, 1, "queued for the scheduler while a client is connected")
        scheduler.run()
        XCTAssertEqual(stages(chunks.withLock { $0 }), ["queued-1", "queued-2"])

        hub.publish(event("queued-3"))
        client.dispose()
        // No client any more, but the relay is still subscribed until the scheduler runs.
        hub.publish(event("after-client-left"))
        XCTAssertEqual(feed.broadcaster.lastID, 3)
        scheduler.run()
        XCTAssertEqual(feed.broadcaster.lastID, 5)
        XCTAssertEqual(hub.subscriberCount, 0, "unsubscribed after the last client left")
        hub.publish(event("unwatched-again"))
        XCTAssertEqual(feed.broadcaster.lastID, 5, "left in the hub again")

        XCTAssertEqual(
            stages(replay(feed)), ["before", "queued-1", "queued-2", "queued-3", "after-client-left", "unwatched-again"])
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import StreamServiceConcurrency
import Streams
import XCTest
@testable import Server

/// The `/events` feed over the hub's one event log: pipeline events and clock ticks share one
/// numbering and one replay buffer, whether or not a client was connected when they were published.
final class PipelineEventFeedTests: XCTestCase {
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

    func testEventsBeyondTheReplayWindowAreGoneForAResume() {
        let hub = PipelineEventHub(replayCapacity: 3)
        let feed = PipelineEventFeed(hub: hub)
        let running = feed.start(clock: nil, scheduler: TestScheduler())
        defer { running.dispose() }
        for index in 1...5 { hub.publish(event("e\(index)")) }

        let replayed = replay(feed)

        XCTAssertEqual(stages(replayed), ["e3", "e4", "e5"])
        XCTAssertEqual(ids(replayed).suffix(3), [3, 4, 5])
    }

    func testAConnectedClientGetsEachEventAsItIsPublishedAfterWhatCameBefore() {
        let hub = PipelineEventHub()
        let feed = PipelineEventFeed(hub: hub)
        let running = feed.start(clock: nil, scheduler: TestScheduler())
        defer { running.dispose() }
        hub.publish(event("before"))
        let chunks = Locked<[[UInt8]]>([])
        let client = feed.subscribe(after: 0).watch(data: { bytes in chunks.withLock { $0.append(bytes) } })

        hub.publish(event("live-1"))
        hub.publish(event("live-2"))
        client.dispose()
        hub.publish(event("after-client-left"))

        XCTAssertEqual(stages(chunks.withLock { $0 }), ["before", "live-1", "live-2"])
        XCTAssertEqual(ids(chunks.withLock { $0 }), [1, 2, 3])
        XCTAssertEqual(stages(replay(feed)), ["before", "live-1", "live-2", "after-client-left"])
    }
}

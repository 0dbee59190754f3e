// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import Foundation
import StreamServiceConcurrency
import Streams
import StreamsTesting
import XCTest
@testable import Domain

/// The hub as the process's one event log: one numbering, one replay buffer, the JSON written
/// once with the id; shared, events leave through the shared feed and come back numbered there.
final class PipelineEventHubTests: XCTestCase {
    func event(_ kind: PipelineEvent.Kind = .data, pipeline: String = "users") -> PipelineEvent {
        PipelineEvent(kind: kind, pipeline: pipeline, requestId: "r1", stage: "s")
    }

    func ids(_ deliveries: [PipelineEventHub.Delivery]) -> [Int] {
        deliveries.compactMap { if case .event(let event) = $0 { event.id } else { nil } }
    }

    func kinds(_ deliveries: [PipelineEventHub.Delivery]) -> [PipelineEvent.Kind] {
        deliveries.compactMap { if case .event(let event) = $0 { event.kind } else { nil } }
    }

    /// The SSE messages a subscriber received, as (id, data) pairs.
    static func messages(_ chunks: [[UInt8]]) -> [(id: Int, data: String)] {
        let text = chunks.map { String(decoding: $0, as: UTF8.self) }.joined()
        return text.split(separator: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n")
            guard let id = lines.first(where: { $0.hasPrefix("id: ") }).flatMap({ Int($0.dropFirst(4)) }),
                  let data = lines.first(where: { $0.hasPrefix("data: ") }) else { return nil }
            return (id, String(data.dropFirst(6)))
        }
    }

    func testPublishedEventsGetIncreasingIdsFromOne() {
        let hub = PipelineEventHub()
        XCTAssertEqual((0..<3).map { _ in hub.publish(event()).id }, [1, 2, 3])
    }

    func testALiveSubscriberGetsTheEventsJSONWrittenWithItsLogId() throws {
        let hub = PipelineEventHub()
        hub.publish(event())
        let chunks = Locked<[[UInt8]]>([])
        let subscription = hub.log.subscribe().watch(data: { bytes in chunks.withLock { $0.append(bytes) } })
        defer { subscription.dispose() }
        hub.publish(event(.end))

        let received = Self.messages(chunks.withLock { $0 })
        XCTAssertEqual(received.map(\.id), [2])
        let decoded = try JSONDecoder().decode(PipelineEvent.self, from: Data(try XCTUnwrap(received.first).data.utf8))
        XCTAssertEqual(decoded.id, 2, "the JSON's id is the SSE id")
        XCTAssertEqual(decoded.kind, .end)
    }

    func testClockTicksAndEventsShareOneNumbering() {
        let hub = PipelineEventHub()
        hub.publish(event())
        hub.log.publish(.clockTick(0))
        XCTAssertEqual(hub.publish(event()).id, 3)
    }

    func testResumeReplaysExactlyTheMissedEvents() {
        let hub = PipelineEventHub()
        for _ in 0..<5 { hub.publish(event()) }
        XCTAssertEqual(ids(hub.recorded(after: 3)), [4, 5])
    }

    func testResumeOlderThanTheBufferStartsWithReset() {
        let hub = PipelineEventHub(replayCapacity: 3)
        for _ in 0..<6 { hub.publish(event()) }
        let replay = hub.recorded(after: 1)
        XCTAssertEqual(replay.first, .reset(oldestAvailable: 4))
        XCTAssertEqual(ids(replay), [4, 5, 6])
    }

    func testResumeAtTheNewestIdReplaysNothing() {
        let hub = PipelineEventHub(replayCapacity: 3)
        for _ in 0..<6 { hub.publish(event()) }
        XCTAssertTrue(hub.recorded(after: 6).isEmpty)
    }

    func testFiltersByPipelineAndKinds() throws {
        let hub = PipelineEventHub()
        hub.publish(event(.error, pipeline: "users"))
        hub.publish(event(.data, pipeline: "profile"))
        hub.publish(event(.end, pipeline: "profile"))
        XCTAssertEqual(ids(hub.recorded(after: 0, matching: PipelineEventFilter(pipeline: "profile", kinds: [.error, .end]))), [3])
    }

    func testDisposingRemovesTheSubscriber() {
        let hub = PipelineEventHub()
        let subscription = hub.log.subscribe().watch { _ in }
        XCTAssertEqual(hub.subscriberCount, 1)
        subscription.dispose()
        XCTAssertEqual(hub.subscriberCount, 0)
    }

    func testTracedStreamPublishesSubscribeDataAndEnd() {
        let hub = PipelineEventHub()
        let trace = PipelineTrace(hub: hub, pipeline: "users", requestId: "r9")
        DataStream.just(data: [1, 2]).traced(trace, stage: "numbers").watch { _ in }
        XCTAssertEqual(kinds(hub.recorded(after: 0)), [.subscribe, .data, .data, .end])
    }

    func testATracedEventFiledWhileNobodyWatchedIsSentAsALiveOneIs() throws {
        let hub = PipelineEventHub()
        let trace = PipelineTrace(hub: hub, pipeline: "users", requestId: "r7")
        trace.publish(.data, stage: "avatar", detail: "ada: 165 bytes")
        let live = Locked<[[UInt8]]>([])
        let subscription = hub.log.subscribe().watch(data: { bytes in live.withLock { $0.append(bytes) } })
        defer { subscription.dispose() }
        trace.publish(.data, stage: "avatar", detail: "ada: 165 bytes")
        let replay = Locked<[[UInt8]]>([])
        hub.log.subscribe(after: 0).watch(data: { bytes in replay.withLock { $0.append(bytes) } }).dispose()

        let filed = try XCTUnwrap(Self.messages(replay.withLock { $0 }).first)
        let delivered = try XCTUnwrap(Self.messages(live.withLock { $0 }).first)
        XCTAssertEqual([filed.id, delivered.id], [1, 2])
        let decode = { (text: String) in try JSONDecoder().decode(PipelineEvent.self, from: Data(text.utf8)) }
        let (a, b) = (try decode(filed.data), try decode(delivered.data))
        XCTAssertEqual([a.id, b.id], [1, 2])
        XCTAssertEqual([a.pipeline, a.requestId, a.stage, a.detail], [b.pipeline, b.requestId, b.stage, b.detail])
        XCTAssertEqual(a.timestamp.count, b.timestamp.count, "RFC 3339 with milliseconds: \(a.timestamp)")
    }

    func testAHubHoldingTracedEventsIsFreedOnceNothingElseHoldsIt() {
        weak var freed: PipelineEventHub?
        do {
            let hub = PipelineEventHub()
            freed = hub
            PipelineTrace(hub: hub, pipeline: "users", requestId: "r8").publish(.subscribe, stage: "users")
            XCTAssertEqual(hub.lastEventId, 1)
        }
        XCTAssertNil(freed, "the log's record of a traced event must not keep the hub")
    }

    func testTracedStreamPublishesDisposeWhenCancelled() {
        let hub = PipelineEventHub()
        let trace = PipelineTrace(hub: hub, pipeline: "users", requestId: "r9")
        DataStream<Int>.never().traced(trace, stage: "wait").watch { _ in }.dispose()
        XCTAssertEqual(hub.lastEventId, 2)
        XCTAssertEqual(kinds(hub.recorded(after: 1)), [.dispose])
    }

    func testWhileSharedEventsGoToTheSharedFeedUnnumberedAndNotIntoTheLog() {
        let hub = PipelineEventHub()
        let forwarded = Locked<[PipelineEvent]>([])
        let sharing = hub.share(through: { event in forwarded.withLock { $0.append(event) } })
        hub.publish(event())
        PipelineTrace(hub: hub, pipeline: "users", requestId: "r2").publish(.end, stage: "list")
        XCTAssertEqual(forwarded.withLock { $0 }.map(\.id), [0, 0], "numbered by the shared stream, not here")
        XCTAssertEqual(forwarded.withLock { $0 }.map(\.kind), [.data, .end])
        XCTAssertEqual(hub.lastEventId, 0)

        sharing.dispose()
        XCTAssertEqual(hub.publish(event()).id, 1, "back to numbering locally")
    }

    func testAnEventNumberedElsewhereIsLoggedUnderThatIdWithItInItsJSON() throws {
        let hub = PipelineEventHub()
        hub.log.publish(.pipeline(event()), id: 41)
        let replay = Locked<[[UInt8]]>([])
        hub.log.subscribe(after: 40).watch(data: { bytes in replay.withLock { $0.append(bytes) } }).dispose()
        let message = try XCTUnwrap(Self.messages(replay.withLock { $0 }).first)
        XCTAssertEqual(message.id, 41)
        XCTAssertEqual(try JSONDecoder().decode(PipelineEvent.self, from: Data(message.data.utf8)).id, 41)
    }
}

/// Publishing from several threads at once, with nobody watching and with subscribers joining.
final class PipelineEventHubConcurrencyTests: XCTestCase {
    private static let threads = 4
    private static let perThread = 500

    /// Publishes `perThread` events from each of `threads` threads at once (stage "tN", detail the index).
    private static func publishFromThreads(_ hub: PipelineEventHub) {
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<Self.perThread {
                hub.publish(PipelineEvent(kind: .data, pipeline: "p", requestId: "r", stage: "t\(thread)", detail: "\(index)"))
            }
        }
    }

    private func events(_ deliveries: [PipelineEventHub.Delivery]) -> [PipelineEvent] {
        deliveries.compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    func testEventsPublishedFromSeveralThreadsGetEachIdOnceAndReplayInIdOrder() {
        let hub = PipelineEventHub(replayCapacity: Self.threads * Self.perThread)
        Self.publishFromThreads(hub)

        let replayed = events(hub.recorded(after: 0))

        XCTAssertEqual(replayed.map(\.id), Array(1...(Self.threads * Self.perThread)))
        for thread in 0..<Self.threads {
            XCTAssertEqual(replayed.filter { $0.stage == "t\(thread)" }.map(\.detail), (0..<Self.perThread).map { "\($0)" }, "thread \(thread)'s order")
        }
    }

    func testTheReplayWindowIsTheNewestCapacityEventsWhicheverThreadPublishedThem() {
        let hub = PipelineEventHub(replayCapacity: 100)
        Self.publishFromThreads(hub)

        let replayed = hub.recorded(after: 0)

        let newest = Self.threads * Self.perThread
        XCTAssertEqual(replayed.first, .reset(oldestAvailable: newest - 99))
        XCTAssertEqual(events(replayed).map(\.id), Array((newest - 99)...newest))
    }

    func testASubscriberJoiningWhileThreadsPublishGetsEveryLaterEventOnceAndInOrder() {
        let hub = PipelineEventHub(replayCapacity: Self.threads * Self.perThread)
        let received = Locked<[Int]>([])
        let publishing = DispatchGroup()
        DispatchQueue.global().async(group: publishing) { Self.publishFromThreads(hub) }
        // Join once some events are out, resuming from the oldest: the replay and the live
        // deliveries together must be every id, once each, in order.
        let deadline = ContinuousClock.now + .seconds(5)
        while hub.lastEventId < 100, ContinuousClock.now < deadline {}
        let subscription = hub.log.subscribe(after: 0).watch(data: { bytes in
            received.withLock { $0 += PipelineEventHubTests.messages([bytes]).map(\.id) }
        })
        publishing.wait()
        subscription.dispose()

        XCTAssertEqual(received.withLock { $0 }, Array(1...(Self.threads * Self.perThread)))
    }

    func testAfterTheLastSubscriberLeavesPublishingFromThreadsStillNumbersEveryEvent() {
        let hub = PipelineEventHub(replayCapacity: 2 * Self.threads * Self.perThread)
        hub.log.subscribe().watch { _ in }.dispose()
        Self.publishFromThreads(hub)
        let subscription = hub.log.subscribe().watch { _ in }
        Self.publishFromThreads(hub)
        subscription.dispose()

        XCTAssertEqual(events(hub.recorded(after: 0)).map(\.id), Array(1...(2 * Self.threads * Self.perThread)))
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import StreamServiceConcurrency
import Streams
import StreamsTesting
import XCTest
@testable import Domain

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

    func testPublishedEventsGetIncreasingIdsFromOne() {
        let hub = PipelineEventHub()
        XCTAssertEqual((0..<3).map { _ in hub.publish(event()).id }, [1, 2, 3])
    }

    func testLiveSubscriberReceivesOnlyLaterEvents() {
        let hub = PipelineEventHub()
        hub.publish(event())
        let recorder = EventRecorder<PipelineEventHub.Delivery>()
        recorder.watch(hub.events())
        hub.publish(event())
        XCTAssertEqual(ids(recorder.values), [2])
    }

    func testResumeReplaysExactlyTheMissedEventsThenContinuesLive() {
        let hub = PipelineEventHub()
        for _ in 0..<5 { hub.publish(event()) }
        let recorder = EventRecorder<PipelineEventHub.Delivery>()
        recorder.watch(hub.events(after: 3))
        hub.publish(event())
        XCTAssertEqual(ids(recorder.values), [4, 5, 6])
    }

    func testResumeOlderThanTheBufferStartsWithReset() {
        let hub = PipelineEventHub(replayCapacity: 3)
        for _ in 0..<6 { hub.publish(event()) }
        let recorder = EventRecorder<PipelineEventHub.Delivery>()
        recorder.watch(hub.events(after: 1))
        XCTAssertEqual(recorder.values.first, .reset(oldestAvailable: 4))
        XCTAssertEqual(ids(recorder.values), [4, 5, 6])
    }

    func testResumeAtTheNewestIdReplaysNothing() {
        let hub = PipelineEventHub(replayCapacity: 3)
        for _ in 0..<6 { hub.publish(event()) }
        let recorder = EventRecorder<PipelineEventHub.Delivery>()
        recorder.watch(hub.events(after: 6))
        XCTAssertTrue(recorder.values.isEmpty)
    }

    func testFiltersByPipelineAndKinds() throws {
        let hub = PipelineEventHub()
        let recorder = EventRecorder<PipelineEventHub.Delivery>()
        recorder.watch(hub.events(matching: PipelineEventFilter(pipeline: "profile", kinds: [.error, .end])))
        hub.publish(event(.error, pipeline: "users"))
        hub.publish(event(.data, pipeline: "profile"))
        hub.publish(event(.end, pipeline: "profile"))
        XCTAssertEqual(ids(recorder.values), [3])
    }

    func testDisposingRemovesTheSubscriber() {
        let hub = PipelineEventHub()
        let subscription = hub.events().watch { _ in }
        XCTAssertEqual(hub.subscriberCount, 1)
        subscription.dispose()
        XCTAssertEqual(hub.subscriberCount, 0)
    }

    func testTracedStreamPublishesSubscribeDataAndEnd() {
        let hub = PipelineEventHub()
        let trace = PipelineTrace(hub: hub, pipeline: "users", requestId: "r9")
        DataStream.just(data: [1, 2]).traced(trace, stage: "numbers").watch { _ in }
        let recorder = EventRecorder<PipelineEventHub.Delivery>()
        recorder.watch(hub.events(after: 0))
        XCTAssertEqual(kinds(recorder.values), [.subscribe, .data, .data, .end])
    }

    func testATracedEventFiledWhileNobodyWatchedReadsBackAsALiveOneIsDelivered() throws {
        let hub = PipelineEventHub()
        let trace = PipelineTrace(hub: hub, pipeline: "users", requestId: "r7")
        trace.publish(.data, stage: "avatar", detail: "ada: 165 bytes")
        let live = EventRecorder<PipelineEventHub.Delivery>()
        live.watch(hub.events())
        trace.publish(.data, stage: "avatar", detail: "ada: 165 bytes")
        let replay = EventRecorder<PipelineEventHub.Delivery>()
        replay.watch(hub.events(after: 0))

        guard case .event(let filed) = replay.values.first, case .event(let delivered) = live.values.first else {
            return XCTFail("expected one filed and one delivered event, got \(replay.values) and \(live.values)")
        }
        XCTAssertEqual([filed.id, delivered.id], [1, 2])
        XCTAssertEqual(filed.kind, delivered.kind)
        XCTAssertEqual([filed.pipeline, filed.requestId, filed.stage], [delivered.pipeline, delivered.requestId, delivered.stage])
        XCTAssertEqual(filed.detail, delivered.detail)
        XCTAssertEqual(filed.timestamp.count, delivered.timestamp.count, "RFC 3339 with milliseconds: \(filed.timestamp)")
    }

    func testAHubHoldingTracedEventsIsFreedOnceNothingElseHoldsIt() {
        weak var freed: PipelineEventHub?
        do {
            let hub = PipelineEventHub()
            freed = hub
            PipelineTrace(hub: hub, pipeline: "users", requestId: "r8").publish(.subscribe, stage: "users")
            XCTAssertEqual(hub.lastEventId, 1)
        }
        XCTAssertNil(freed, "the hub's record of a traced event must not keep the hub")
    }

    func testTracedStreamPublishesDisposeWhenCancelled() {
        let hub = PipelineEventHub()
        let trace = PipelineTrace(hub: hub, pipeline: "users", requestId: "r9")
        DataStream<Int>.never().traced(trace, stage: "wait").watch { _ in }.dispose()
        XCTAssertEqual(hub.lastEventId, 2)
        let recorder = EventRecorder<PipelineEventHub.Delivery>()
        recorder.watch(hub.events(after: 1))
        XCTAssertEqual(kinds(recorder.values), [.dispose])
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
        let subscription = hub.events(after: 0).watch(data: { delivery in
            if case .event(let event) = delivery { received.withLock { $0.append(event.id) } }
        })
        publishing.wait()
        subscription.dispose()

        XCTAssertEqual(received.withLock { $0 }, Array(1...(Self.threads * Self.perThread)))
    }

    func testAfterTheLastSubscriberLeavesPublishingFromThreadsStillNumbersEveryEvent() {
        let hub = PipelineEventHub(replayCapacity: 2 * Self.threads * Self.perThread)
        hub.events().watch { _ in }.dispose()
        Self.publishFromThreads(hub)
        let subscription = hub.events().watch { _ in }
        Self.publishFromThreads(hub)
        subscription.dispose()

        XCTAssertEqual(events(hub.recorded(after: 0)).map(\.id), Array(1...(2 * Self.threads * Self.perThread)))
    }
}

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

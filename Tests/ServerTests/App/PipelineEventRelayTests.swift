import Domain
import StreamServiceConcurrency
import Streams
import XCTest
@testable import Server

/// How the `/events` feed takes the hub's pipeline events: on the publishing thread while no
/// client is connected, through the feed's scheduler while one is, never out of order.
final class PipelineEventRelayTests: XCTestCase {
    private func event(_ stage: String) -> PipelineEvent {
        PipelineEvent(kind: .data, pipeline: "users", requestId: "r", stage: stage)
    }

    /// The stages of the events in the received bytes, in order.
    private func stages(_ chunks: [[UInt8]]) -> [String] {
        let text = chunks.map { String(decoding: $0, as: UTF8.self) }.joined()
        return text.split(separator: "\n").filter { $0.hasPrefix("data: ") }.compactMap { line in
            guard let start = line.firstRange(of: #""stage":""#)?.upperBound else { return nil }
            return String(line[start...].prefix { $0 != "\"" })
        }
    }

    func testWithoutClientsEventsAreRecordedAtOnceWithoutTheScheduler() {
        let hub = PipelineEventHub()
        let feed = PipelineEventFeed(hub: hub)
        let scheduler = TestScheduler()
        let running = feed.start(clock: nil, scheduler: scheduler)
        defer { running.dispose() }

        hub.publish(event("a"))
        hub.publish(event("b"))

        XCTAssertEqual(feed.broadcaster.lastID, 2, "recorded before the scheduler ran")
    }

    func testWithAClientEventsWaitForTheSchedulerAndLaterOnesNeverOvertakeThem() {
        let hub = PipelineEventHub()
        let feed = PipelineEventFeed(hub: hub)
        let scheduler = TestScheduler()
        let running = feed.start(clock: nil, scheduler: scheduler)
        defer { running.dispose() }
        hub.publish(event("before"))
        let chunks = Locked<[[UInt8]]>([])
        let client = feed.broadcaster.subscribe().watch(data: { bytes in chunks.withLock { $0.append(bytes) } })

        hub.publish(event("queued-1"))
        hub.publish(event("queued-2"))
        XCTAssertEqual(feed.broadcaster.lastID, 1, "queued for the scheduler while a client is connected")
        scheduler.run()
        XCTAssertEqual(stages(chunks.withLock { $0 }), ["queued-1", "queued-2"])

        hub.publish(event("queued-3"))
        client.dispose()
        // No client any more, but one event is still queued: this one must wait behind it.
        hub.publish(event("after-client-left"))
        XCTAssertEqual(feed.broadcaster.lastID, 3)
        scheduler.run()
        hub.publish(event("direct-again"))
        XCTAssertEqual(feed.broadcaster.lastID, 6, "with the queue drained and no client, recorded at once again")

        let replay = Locked<[[UInt8]]>([])
        feed.broadcaster.subscribe(after: 0).watch(data: { bytes in replay.withLock { $0.append(bytes) } }).dispose()
        XCTAssertEqual(stages(replay.withLock { $0 }), ["before", "queued-1", "queued-2", "queued-3", "after-client-left", "direct-again"])
    }
}

import CoreMetrics
import MetricsTestKit
import Streams
import XCTest
@testable import Server

final class SubscriberCountTests: XCTestCase {
    func testCountedStreamMovesTheGaugeUpAndBackDownOnce() throws {
        let recorded = TestMetrics()
        let gauge = Meter(label: "g", factory: recorded)
        let source = Streamer<[UInt8]>()
        let subscription = source.asDataStream().counted(in: gauge).watch(data: { _ in })
        XCTAssertEqual(try recorded.expectMeter(gauge).values, [1])
        source.end()
        subscription.dispose()
        XCTAssertEqual(try recorded.expectMeter(gauge).values, [1, 0])
    }
}

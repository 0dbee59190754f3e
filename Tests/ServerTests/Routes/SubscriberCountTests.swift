import Streams
import XCTest
@testable import Server

final class SubscriberCountTests: XCTestCase {
    func testCountedStreamMovesTheGaugeUpAndBackDownOnce() {
        let gauge = MetricsRegistry().gauge("g", help: "G.")
        let source = Streamer<[UInt8]>()
        let subscription = source.asDataStream().counted(in: gauge).watch(data: { _ in })
        XCTAssertEqual(gauge.value, 1)
        source.end()
        subscription.dispose()
        XCTAssertEqual(gauge.value, 0)
    }
}

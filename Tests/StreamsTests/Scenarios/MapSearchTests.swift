// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import StreamsTesting
import XCTest

/// Map search: searching the visible region takes a while; when the camera moves
/// before the answer arrives, the search is cancelled (`takeUntil`) and the
/// request disposed, so a stale region's results never land on the new map.
final class MapSearchTests: XCTestCase {
    private func search(in region: String, scheduler: TestScheduler) -> ColdStream<[String]> {
        scheduler.coldStream([.data(300, ["cafés in \(region)"]), .end(300)])
    }

    func testResultsArriveWhenTheCameraStaysStill() {
        let scheduler = TestScheduler()
        let request = search(in: "Mitte", scheduler: scheduler)
        let cameraMoves = scheduler.hotStream([Recorded<String>.data(900, "Kreuzberg")])
        let recorder = scheduler.start { request.takeUntil(cameraMoves) }
        XCTAssertEqual(recorder.events, [.data(500, ["cafés in Mitte"]), .end(500)])
        XCTAssertEqual(request.subscriptions, [SubscriptionSpan(200, 500)])
    }

    func testMovingTheCameraCancelsTheSearchInFlight() {
        let scheduler = TestScheduler()
        let request = search(in: "Mitte", scheduler: scheduler)
        let cameraMoves = scheduler.hotStream([Recorded<String>.data(350, "Kreuzberg")])
        let recorder = scheduler.start { request.takeUntil(cameraMoves) }
        XCTAssertEqual(recorder.events, [.end(350)])
        XCTAssertEqual(request.subscriptions, [SubscriptionSpan(200, 350)])
        XCTAssertEqual(cameraMoves.subscriptions, [SubscriptionSpan(200, 350)])
    }

    func testEachCameraStopSearchesItsRegionAndCancelsThePreviousOne() {
        let scheduler = TestScheduler()
        let stops = scheduler.hotStream([.data(250, "Mitte"), .data(400, "Kreuzberg"), .end(1_500)])
        let requests = [
            "Mitte": search(in: "Mitte", scheduler: scheduler),
            "Kreuzberg": search(in: "Kreuzberg", scheduler: scheduler),
        ]
        let recorder = scheduler.start(disposed: 2_000) {
            // The next stop ends a search: a hot stream watched from inside the delivery of
            // one stop starts with the following one.
            stops.redirect { region in requests[region]!.takeUntil(stops) }
        }
        XCTAssertEqual(recorder.events, [.data(700, ["cafés in Kreuzberg"]), .end(1_500)])
        XCTAssertEqual(requests["Mitte"]?.subscriptions, [SubscriptionSpan(250, 400)])
    }
}

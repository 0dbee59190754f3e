// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// Contract 2: a watcher never receives two events at once, even when sources
/// emit from many threads.
final class SerializedDeliveryContractTests: XCTestCase {
    func testMergeOfFourThreadedSourcesDeliversAll200000EventsNeverTwoAtOnce() {
        let detector = OverlapDetector()
        let ended = expectation(description: "ended")
        let sources = (0..<4).map { _ in backgroundRange(50_000) as any StreamType<Int> }
        let subscription = DataStream.merge(sources).watch { event in
            detector.deliver()
            if event.isTerminal { ended.fulfill() }
        }
        wait(for: [ended], timeout: 60)
        XCTAssertEqual(detector.count, 200_001)
        XCTAssertEqual(detector.overlaps, 0)
        subscription.dispose()
    }

    func testZipOfTwoThreadedSourcesDeliversEveryPairNeverTwoAtOnce() {
        let detector = OverlapDetector()
        let ended = expectation(description: "ended")
        let mismatches = Counter()
        let subscription = DataStream.zip(backgroundRange(50_000), backgroundRange(50_000)).watch { event in
            detector.deliver {
                if case .data(let (a, b)) = event, a != b { mismatches.increment() }
            }
            if event.isTerminal { ended.fulfill() }
        }
        wait(for: [ended], timeout: 60)
        XCTAssertEqual(detector.count, 50_001)
        XCTAssertEqual(detector.overlaps, 0)
        XCTAssertEqual(mismatches.value, 0)
        subscription.dispose()
    }

    func testCombineLatestOfThreadedSourcesNeverDeliversTwoAtOnce() {
        let detector = OverlapDetector()
        let ended = expectation(description: "ended")
        let subscription = DataStream.combineLatest(backgroundRange(30_000), backgroundRange(30_000)).watch { event in
            detector.deliver()
            if event.isTerminal { ended.fulfill() }
        }
        wait(for: [ended], timeout: 60)
        XCTAssertEqual(detector.overlaps, 0)
        XCTAssertGreaterThan(detector.count, 30_000)
        subscription.dispose()
    }

    func testRedirectOfThreadedInnersNeverDeliversTwoAtOnce() {
        let detector = OverlapDetector()
        let ended = expectation(description: "ended")
        let subscription = DataStream.just(data: [0, 1, 2, 3]).redirect { _ in backgroundRange(20_000) }.watch { event in
            detector.deliver()
            if event.isTerminal { ended.fulfill() }
        }
        wait(for: [ended], timeout: 60)
        XCTAssertEqual(detector.count, 80_001)
        XCTAssertEqual(detector.overlaps, 0)
        subscription.dispose()
    }

    func testStreamerFedFromManyThreadsNeverDeliversTwoAtOnce() {
        let streamer = Streamer<Int>()
        let detector = OverlapDetector()
        streamer.watch { _ in detector.deliver() }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for value in 0..<20_000 { streamer.data(value) }
        }
        XCTAssertEqual(detector.count, 80_000)
        XCTAssertEqual(detector.overlaps, 0)
    }

    func testWithLatestFromOfThreadedSourcesNeverDeliversTwoAtOnce() {
        let detector = OverlapDetector()
        let ended = expectation(description: "ended")
        let subscription = backgroundRange(30_000).withLatestFrom(backgroundRange(30_000)).watch { event in
            detector.deliver()
            if event.isTerminal { ended.fulfill() }
        }
        wait(for: [ended], timeout: 60)
        XCTAssertEqual(detector.overlaps, 0)
        subscription.dispose()
    }
}

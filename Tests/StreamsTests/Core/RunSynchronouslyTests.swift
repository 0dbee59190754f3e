// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Streams
import XCTest

/// `runSynchronously`: what an engine gets from a synchronous stream without watching it.
final class RunSynchronouslyTests: XCTestCase {
    private struct Boom: Error, Equatable {}

    private func run<E>(_ stream: DataStream<E>, takingAtMost limit: Int = .max) -> (ran: Bool, events: [String]) {
        var events: [String] = []
        let ran = stream.runSynchronously { event in
            switch event {
            case .data(let value): events.append("\(value)")
            case .error(let error): events.append("error \(error)")
            case .end: events.append("end")
            }
            return events.count < limit
        }
        return (ran, events)
    }

    func testAFusedSynchronousStreamDeliversItsValuesThenItsEnd() {
        let result = run(DataStream.just(data: [1, 2, 3]).map { $0 * 10 }.filter { $0 > 10 })
        XCTAssertTrue(result.ran)
        XCTAssertEqual(result.events, ["20", "30", "end"])
    }

    func testReturningFalseStopsTheSourceWithoutATerminalEvent() {
        let pulled = StreamServiceConcurrency.Locked(0)
        let result = run(DataStream.from(1...1_000_000).map { value in
            pulled.withLock { $0 += 1 }
            return value
        }, takingAtMost: 1)
        XCTAssertTrue(result.ran)
        XCTAssertEqual(result.events, ["1"])
        XCTAssertEqual(pulled.withLock { $0 }, 1)
    }

    func testAThrowingOperatorEndsTheRunWithItsError() {
        let result = run(DataStream.just(1).map { _ -> Int in throw Boom() })
        XCTAssertTrue(result.ran)
        XCTAssertEqual(result.events, ["error Boom()"])
    }

    func testAnEmptyStreamDeliversOnlyItsEnd() {
        XCTAssertEqual(run(DataStream<Int>.empty()).events, ["end"])
    }

    func testAStreamThatIsNotSynchronousIsNotRun() {
        let subscribed = StreamServiceConcurrency.Locked(false)
        let stream = DataStream<Int> { watcher in
            subscribed.withLock { $0 = true }
            watcher.data(1)
            return Disposable()
        }
        let result = run(stream)
        XCTAssertFalse(result.ran)
        XCTAssertEqual(result.events, [])
        XCTAssertFalse(subscribed.withLock { $0 })
    }
}

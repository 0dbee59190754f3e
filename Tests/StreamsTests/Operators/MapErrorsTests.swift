// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// `map(_:errors:)`: one stage that does what `map` then `recover { .just(error: classify($0)) }` do.
final class MapErrorsTests: XCTestCase {
    struct Wrapped: Error, Equatable {
        let inner: String
    }

    @Sendable static func wrap(_ error: any Error) -> any Error { Wrapped(inner: String(describing: error)) }

    /// A source that is not fused: values, then `ending` (nil: the end).
    func source(_ values: [Int], ending error: TestError?) -> DataStream<Int> {
        DataStream { watcher in
            for value in values { watcher.data(value) }
            if let error { watcher.error(error) } else { watcher.end() }
            return Disposable()
        }
    }

    // -1-2-|  map(*10, errors: wrap)  -10-20-|
    func testValuesAreTransformedAndTheEndPassesOn() {
        let recorder = EventRecorder<Int>()
        source([1, 2], ending: nil).map({ $0 * 10 }, errors: Self.wrap).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(10), .data(20), .end])
    }

    // -1-#(boom)  map(*10, errors: wrap)  -10-#(wrap(boom))
    func testTheSourcesErrorIsReplacedByTheClassifiedOne() {
        let recorder = EventRecorder<Int>()
        source([1], ending: .boom).map({ $0 * 10 }, errors: Self.wrap).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events.count, 2)
        XCTAssertEqual(recorder.events.first, .data(10))
        XCTAssertEqual(recorder.events.last?.error as? Wrapped, Wrapped(inner: String(describing: TestError.boom)))
    }

    func testItDeliversWhatMapThenRecoverDeliverForEveryShape() {
        let transforms: [@Sendable (Int) throws -> Int] = [{ $0 + 1 }, { value in if value == 2 { throw TestError.boom }; return value }]
        for transform in transforms {
            for (values, error) in [([], nil), ([1, 2, 3], nil), ([1], TestError.boom), ([], TestError.boom), ([1, 2, 3], TestError.boom)] as [([Int], TestError?)] {
                for fused in [false, true] {
                    let make = { fused ? (error.map { e in DataStream.concat(DataStream.just(data: values), DataStream<Int>.just(error: e)) } ?? DataStream.just(data: values)) : self.source(values, ending: error) }
                    let fast = EventRecorder<Int>(), twin = EventRecorder<Int>()
                    make().map(transform, errors: Self.wrap).watch(using: fast.watcher)
                    make().map(transform).recover { error in DataStream<Int>.just(error: Self.wrap(error)) }.watch(using: twin.watcher)
                    XCTAssertEqual(fast.events.map { String(describing: $0) }, twin.events.map { String(describing: $0) }, "\(values) \(String(describing: error)) fused: \(fused)")
                }
            }
        }
    }
}

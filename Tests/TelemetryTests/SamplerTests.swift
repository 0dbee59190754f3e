// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Telemetry
import XCTest

/// The OTel SDK samplers' decisions.
final class SamplerTests: XCTestCase {
    private let sampledParent = SpanContext(traceID: TraceID(high: 1, low: 2), spanID: SpanID(3), isSampled: true, isRemote: true)
    private let unsampledParent = SpanContext(traceID: TraceID(high: 1, low: 2), spanID: SpanID(3), isSampled: false, isRemote: true)

    func testTheDefaultIsParentBasedAlwaysOn() {
        XCTAssertEqual(Sampler.default, .parentBased(root: .alwaysOn))
        XCTAssertTrue(Sampler.default.shouldSample(traceID: .random(), parent: nil))
        XCTAssertTrue(Sampler.default.shouldSample(traceID: .random(), parent: sampledParent))
        XCTAssertFalse(Sampler.default.shouldSample(traceID: .random(), parent: unsampledParent))
    }

    func testParentBasedFollowsTheParentWhateverTheRoot() {
        let sampler = Sampler.parentBased(root: .alwaysOff)
        XCTAssertFalse(sampler.shouldSample(traceID: .random(), parent: nil))
        XCTAssertTrue(sampler.shouldSample(traceID: .random(), parent: sampledParent))
        XCTAssertFalse(Sampler.parentBased(root: .alwaysOn).shouldSample(traceID: .random(), parent: unsampledParent))
    }

    func testRatioZeroSamplesNothingAndOneEverything() {
        for _ in 0..<1000 {
            XCTAssertFalse(Sampler.traceIDRatio(0).shouldSample(traceID: .random(), parent: nil))
            XCTAssertTrue(Sampler.traceIDRatio(1).shouldSample(traceID: .random(), parent: nil))
        }
    }

    func testARatioOfHalfSamplesTheTracesWhoseLowerBitsFallInTheLowerHalf() {
        let sampler = Sampler.traceIDRatio(0.5)
        XCTAssertTrue(sampler.shouldSample(traceID: TraceID(high: 0, low: (1 << 62) - 1), parent: nil))
        XCTAssertFalse(sampler.shouldSample(traceID: TraceID(high: 0, low: 1 << 62), parent: nil))
        XCTAssertTrue(sampler.shouldSample(traceID: TraceID(high: 0, low: (1 << 63) | 1), parent: nil), "the top bit is not compared")
    }

    func testRatioSamplesAboutItsShareAndTheSameTraceAlike() {
        let ids = (0..<20_000).map { _ in TraceID.random() }
        let sampled = ids.filter { Sampler.traceIDRatio(0.25).shouldSample(traceID: $0, parent: nil) }.count
        XCTAssertEqual(Double(sampled) / 20_000, 0.25, accuracy: 0.02)
        XCTAssertTrue(ids.allSatisfy { Sampler.traceIDRatio(0.25).shouldSample(traceID: $0, parent: nil) == Sampler.traceIDRatio(0.25).shouldSample(traceID: $0, parent: nil) })
    }

    func testAlwaysOnIgnoresAnUnsampledParentAndAlwaysOffASampledOne() {
        XCTAssertTrue(Sampler.alwaysOn.shouldSample(traceID: .random(), parent: unsampledParent))
        XCTAssertFalse(Sampler.alwaysOff.shouldSample(traceID: .random(), parent: sampledParent))
    }

    func testSamplerNamesParseAsTheSpecSpellsThem() throws {
        XCTAssertEqual(try Sampler.parse(name: "always_on", argument: nil), .alwaysOn)
        XCTAssertEqual(try Sampler.parse(name: "always_off", argument: "0.5"), .alwaysOff)
        XCTAssertEqual(try Sampler.parse(name: "traceidratio", argument: "0.01"), .traceIDRatio(0.01))
        XCTAssertEqual(try Sampler.parse(name: "traceidratio", argument: nil), .traceIDRatio(1))
        XCTAssertEqual(try Sampler.parse(name: "parentbased_traceidratio", argument: "0"), .parentBased(root: .traceIDRatio(0)))
        XCTAssertEqual(try Sampler.parse(name: "parentbased_always_off", argument: nil), .parentBased(root: .alwaysOff))
        XCTAssertThrowsError(try Sampler.parse(name: "sometimes", argument: nil))
        XCTAssertThrowsError(try Sampler.parse(name: "traceidratio", argument: "1.5"))
        XCTAssertThrowsError(try Sampler.parse(name: "traceidratio", argument: "half"))
    }
}

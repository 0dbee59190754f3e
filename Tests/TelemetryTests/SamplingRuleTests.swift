// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

@testable import Telemetry
import XCTest

/// `SamplingRule`, a sampler's decision worked out once, decides as its slow twin
/// `Sampler.shouldSample(traceID:parentSampled:)` does.
final class SamplingRuleTests: XCTestCase {
    private let samplers: [Sampler] = [
        .alwaysOn, .alwaysOff, .traceIDRatio(0), .traceIDRatio(0.01), .traceIDRatio(0.5), .traceIDRatio(1), .traceIDRatio(-1),
        .traceIDRatio(.nan), .parentBased(root: .alwaysOn), .parentBased(root: .alwaysOff), .parentBased(root: .traceIDRatio(0.25)),
        .parentBased(root: .parentBased(root: .traceIDRatio(0.75))),
    ]

    func testTheRuleDecidesAsItsSamplerForEveryParentAndTraceID() {
        let ids = (0..<2_000).map { _ in TraceID.random() }
            + [TraceID(high: 0, low: 0), TraceID(high: 0, low: .max), TraceID(high: 0, low: 1 << 62), TraceID(high: 0, low: (1 << 62) - 1)]
        for sampler in samplers {
            let rule = SamplingRule(sampler)
            for parentSampled in [nil, true, false] as [Bool?] {
                let decisions = ids.map { rule.shouldSample(traceID: $0, parentSampled: parentSampled) }
                XCTAssertEqual(decisions, ids.map { sampler.shouldSample(traceID: $0, parentSampled: parentSampled) }, "\(sampler), parent \(String(describing: parentSampled))")
            }
        }
    }

    func testARatioOfHalfSamplesTheTracesWhoseLowerBitsFallInTheLowerHalf() {
        let rule = SamplingRule(.traceIDRatio(0.5))
        XCTAssertEqual(rule.root, .below(1 << 62))
        XCTAssertTrue(rule.shouldSample(traceID: TraceID(high: 0, low: (1 << 62) - 1), parentSampled: nil))
        XCTAssertFalse(rule.shouldSample(traceID: TraceID(high: 0, low: 1 << 62), parentSampled: nil))
        XCTAssertTrue(rule.shouldSample(traceID: TraceID(high: 0, low: (1 << 63) | 1), parentSampled: nil), "the top bit is not compared")
    }
}

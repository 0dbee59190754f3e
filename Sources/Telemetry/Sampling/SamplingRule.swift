// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A `Sampler`'s decision worked out once, as the tracer asks it for every span: whether a
/// parent's flag is followed, and a root span's answer (always, never, or the trace id's lower
/// 63 bits below a bound). `Sampler.shouldSample(traceID:parentSampled:)` is the slow twin: it
/// walks the (indirect) sampler and turns a ratio into its bound at each span; the tests hold
/// the two to the same decisions.
struct SamplingRule: Sendable, Equatable {
    /// A span without a parent.
    enum Root: Sendable, Equatable {
        case always
        case never
        /// Sampled when the trace id's lower 63 bits are below this.
        case below(UInt64)
    }

    let root: Root
    /// A parent's sampled flag decides its children (the parent-based samplers).
    let followsParent: Bool

    init(_ sampler: Sampler) {
        switch sampler {
        case .alwaysOn: (root, followsParent) = (.always, false)
        case .alwaysOff: (root, followsParent) = (.never, false)
        case .traceIDRatio(let ratio): (root, followsParent) = (Self.root(ratio: ratio), false)
        case .parentBased(let rootSampler): (root, followsParent) = (SamplingRule(rootSampler).root, true)
        }
    }

    /// `Sampler.ratioSamples`'s decision for `ratio`, as a root rule.
    static func root(ratio: Double) -> Root {
        guard ratio > 0 else { return .never }
        guard ratio < 1 else { return .always }
        return .below(UInt64(ratio * Double(UInt64(1) << 63)))
    }

    /// What `Sampler.shouldSample(traceID:parentSampled:)` answers (nil `parentSampled`: no parent).
    @inline(__always)
    func shouldSample(traceID: TraceID, parentSampled: Bool?) -> Bool {
        if followsParent, let parentSampled { return parentSampled }
        switch root {
        case .always: return true
        case .never: return false
        case .below(let bound): return (traceID.low & ~(UInt64(1) << 63)) < bound
        }
    }
}

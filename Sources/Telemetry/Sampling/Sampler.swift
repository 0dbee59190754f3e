// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import Tracing

/// The OpenTelemetry SDK samplers (https://opentelemetry.io/docs/specs/otel/trace/sdk/#built-in-samplers).
/// A span that is not sampled records nothing and is never exported, but its ids still travel
/// with trace-flags `00`, so the next hops can keep the decision.
public indirect enum Sampler: Sendable, Equatable, CustomStringConvertible {
    case alwaysOn
    case alwaysOff
    /// Samples this fraction of new traces, by trace id, so every service that uses the same
    /// ratio keeps the same traces.
    case traceIDRatio(Double)
    /// Follows the parent's sampled flag; `root` decides for spans without a parent.
    case parentBased(root: Sampler)

    /// The specification's default: `parentbased_always_on`.
    public static let `default` = Sampler.parentBased(root: .alwaysOn)

    /// Whether a span of trace `traceID` under `parent` (nil: a root span) is sampled.
    public func shouldSample(traceID: TraceID, parent: SpanContext?) -> Bool {
        shouldSample(traceID: traceID, parentSampled: parent?.isSampled)
    }

    /// `shouldSample(traceID:parent:)` given the parent's sampled flag alone (nil: no parent), all
    /// it reads of the parent: the tracer then copies no `SpanContext` out to ask.
    func shouldSample(traceID: TraceID, parentSampled: Bool?) -> Bool {
        switch self {
        case .alwaysOn: return true
        case .alwaysOff: return false
        case .traceIDRatio(let ratio): return Self.ratioSamples(traceID: traceID, ratio: ratio)
        case .parentBased(let root):
            // The spec's defaults for all four parent cases: follow the parent's flag, local or remote.
            guard let parentSampled else { return root.shouldSample(traceID: traceID, parentSampled: nil) }
            return parentSampled
        }
    }

    /// The lower 63 bits of the trace id against `ratio`'s share of them: the same decision for the
    /// same trace wherever it is taken (W3C random trace ids have their randomness there).
    static func ratioSamples(traceID: TraceID, ratio: Double) -> Bool {
        guard ratio > 0 else { return false }
        guard ratio < 1 else { return true }
        let bound = UInt64(ratio * Double(UInt64(1) << 63))
        return (traceID.low & ~(UInt64(1) << 63)) < bound
    }

    /// The `OTEL_TRACES_SAMPLER` name with its argument, e.g. `parentbased_traceidratio 0.01`.
    public var description: String {
        switch self {
        case .alwaysOn: "always_on"
        case .alwaysOff: "always_off"
        case .traceIDRatio(let ratio): "traceidratio \(ratio)"
        case .parentBased(let root): "parentbased_\(root)"
        }
    }

    /// `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`; the argument counts for the ratio
    /// samplers only (default 1.0, as the spec says). Throws a reason for anything else.
    public static func parse(name: String, argument: String?) throws(TelemetryConfigurationError) -> Sampler {
        func ratio() throws(TelemetryConfigurationError) -> Double {
            guard let argument else { return 1 }
            guard let value = Double(argument.trimmingWhitespace()), value >= 0, value <= 1 else {
                throw TelemetryConfigurationError(.tracesSamplerArg, value: argument, reason: "expected a ratio from 0.0 to 1.0")
            }
            return value
        }
        switch name.trimmingWhitespace().lowercased() {
        case "always_on": return .alwaysOn
        case "always_off": return .alwaysOff
        case "traceidratio": return .traceIDRatio(try ratio())
        case "parentbased_always_on": return .parentBased(root: .alwaysOn)
        case "parentbased_always_off": return .parentBased(root: .alwaysOff)
        case "parentbased_traceidratio": return .parentBased(root: .traceIDRatio(try ratio()))
        default:
            throw TelemetryConfigurationError(
                .tracesSampler, value: name,
                reason: "expected always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off or parentbased_traceidratio")
        }
    }
}

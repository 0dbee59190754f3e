// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Runs a workload in this process: one warm-up, then a fixed number of timed runs, median of them.
public struct WorkloadTimer: Sendable {
    public var runs = 5
    /// A warm-up longer than this is itself the only sample (runs = 1), so a quadratic peer stays bounded.
    public var longWarmUp: Duration = .seconds(10)

    public init() {}

    public func measure(_ workload: Workload, library: String) -> Measurement {
        let clock = ContinuousClock()
        var checksum = 0
        let body = workload.prepare()
        let warmUp = clock.measure { checksum = body() }
        guard checksum == workload.expected else {
            return failure(workload, library: library, status: "wrong-result(got \(checksum))")
        }
        var samples: [Duration] = []
        if warmUp > longWarmUp {
            samples = [warmUp]
        } else {
            for _ in 0..<runs {
                samples.append(clock.measure { checksum = body() })
                guard checksum == workload.expected else {
                    return failure(workload, library: library, status: "wrong-result(got \(checksum))")
                }
            }
        }
        let perElement = samples.map { Self.nanoseconds($0) / Double(max(1, workload.elements)) }
        return Measurement(
            library: workload.library ?? library, workload: workload.id, status: "ok",
            nsPerElement: Statistics.median(perElement), peakRSSKB: PeakMemory.residentKB(),
            runs: samples.count, elements: workload.elements
        )
    }

    private func failure(_ workload: Workload, library: String, status: String) -> Measurement {
        Measurement(
            library: workload.library ?? library, workload: workload.id, status: status,
            nsPerElement: nil, peakRSSKB: PeakMemory.residentKB(), runs: 0, elements: workload.elements
        )
    }

    static func nanoseconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) * 1e9 + Double(parts.attoseconds) / 1e9
    }
}

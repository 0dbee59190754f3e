// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Every RESULT line of a benchmark session, summarised per (library, workload) as the median over the
/// processes that measured it (one process per interleaved round).
public struct ResultSet: Sendable {
    public struct Summary: Sendable {
        public var nsPerElement: Double?
        public var peakRSSKB: Double?
        /// `ok`, or the first failure seen (a crash in any round is what matters).
        public var status: String
        public var processes: Int
        public var runsPerProcess: Int
        public var elements: Int
    }

    private var measurements: [String: [Measurement]] = [:]

    public init(lines: some Sequence<some StringProtocol>) {
        for line in lines {
            guard let measurement = Measurement(line: line) else { continue }
            measurements[Self.key(measurement.library, measurement.workload), default: []].append(measurement)
        }
    }

    public func summary(library: String, workload: String) -> Summary? {
        guard let all = measurements[Self.key(library, workload)], !all.isEmpty else { return nil }
        let ok = all.filter(\.isOK)
        return Summary(
            nsPerElement: Statistics.median(ok.compactMap(\.nsPerElement)),
            peakRSSKB: Statistics.median(ok.compactMap { $0.peakRSSKB.map(Double.init) }),
            status: all.first(where: { !$0.isOK })?.status ?? "ok",
            processes: all.count,
            runsPerProcess: ok.map(\.runs).min() ?? 0,
            elements: all[0].elements
        )
    }

    /// The median of the per-round ratios a/b, pairing the i-th process of each: rounds interleave, so a
    /// pair ran under the same machine load, which a ratio of medians would not guarantee.
    public func pairedRatio(_ a: (library: String, workload: String), _ b: (library: String, workload: String)) -> Double? {
        let left = measurements[Self.key(a.library, a.workload)] ?? []
        let right = measurements[Self.key(b.library, b.workload)] ?? []
        let ratios = zip(left, right).compactMap { x, y -> Double? in
            guard x.isOK, y.isOK, let p = x.nsPerElement, let q = y.nsPerElement, q > 0 else { return nil }
            return p / q
        }
        return Statistics.median(ratios)
    }

    private static func key(_ library: String, _ workload: String) -> String {
        library + "\u{1}" + workload
    }
}

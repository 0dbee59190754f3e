// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The outcome of one workload in one process, exchanged between processes as one tab-separated line
/// (`RESULT library workload status ns/element peakRSS-KB runs elements`).
public struct Measurement: Sendable, Equatable {
    public var library: String
    public var workload: String
    /// `ok`, `crashed(signal N)`, `exit(N)`, `timeout(Ns)` or `wrong-result(got N)`.
    public var status: String
    public var nsPerElement: Double?
    public var peakRSSKB: Int?
    public var runs: Int
    public var elements: Int

    public init(library: String, workload: String, status: String, nsPerElement: Double?, peakRSSKB: Int?, runs: Int, elements: Int) {
        self.library = library
        self.workload = workload
        self.status = status
        self.nsPerElement = nsPerElement
        self.peakRSSKB = peakRSSKB
        self.runs = runs
        self.elements = elements
    }

    public var isOK: Bool { status == "ok" }

    public var line: String {
        let ns = nsPerElement.map { String($0) } ?? "-"
        let rss = peakRSSKB.map { String($0) } ?? "-"
        return ["RESULT", library, workload, status, ns, rss, String(runs), String(elements)].joined(separator: "\t")
    }

    public init?(line: some StringProtocol) {
        let fields = String(line).split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 8, fields[0] == "RESULT", let runs = Int(fields[6]), let elements = Int(fields[7]) else {
            return nil
        }
        self.init(
            library: fields[1], workload: fields[2], status: fields[3],
            nsPerElement: Double(fields[4]), peakRSSKB: Int(fields[5]), runs: runs, elements: elements
        )
    }
}

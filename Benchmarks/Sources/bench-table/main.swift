// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import BenchSupport

// Reads the RESULT lines of streams-bench and opencombine-bench (any number of interleaved rounds) on
// stdin and prints the issue's table: ours vs OpenCombine per workload, ratio, goal, and the plain loop.
let ours = "Streams", peer = "OpenCombine", loop = "plain loop"
var lines: [String] = []
while let line = readLine() { lines.append(line) }
let results = ResultSet(lines: lines)

struct Row {
    let label: String
    let ours: String
    let peer: String
    let goal: Double?
}

let rows = [
    Row(label: "(a) map→filter→reduce 1M, ours `from` vs OC eager", ours: "a.from", peer: "a.eager", goal: 0.1),
    Row(label: "(a) ours `from`, closures with captures, vs OC eager", ours: "a.captures", peer: "a.eager", goal: nil),
    Row(label: "(a) ours `DataStream {}` (create) vs OC eager", ours: "a.create", peer: "a.eager", goal: nil),
    Row(label: "(a) ours `from` vs OC streaming", ours: "a.from", peer: "a.streaming", goal: nil),
    Row(label: "(b) redirect/flatMap of 10,000", ours: "b", peer: "b", goal: 0.33),
    Row(label: "(c) Streamer/Subject 1,000 × 1,000", ours: "c", peer: "c", goal: 0.25),
] + Sizes.zip.map { count in
    Row(label: "(d) zip 2×\(Formatting.grouped(count)) (per pair)", ours: "d.\(count)", peer: "d.\(count)",
        goal: count == 100_000 ? 0.1 : nil)
} + [
    Row(label: "chain of \(Formatting.grouped(Sizes.chain)) maps", ours: "chain.\(Sizes.chain)", peer: "chain.\(Sizes.chain)", goal: nil),
]

func cell(_ summary: ResultSet.Summary?) -> String {
    guard let summary else { return "not run" }
    if summary.status.hasPrefix("timeout("), let seconds = Double(summary.status.dropFirst(8).prefix { $0.isNumber }) {
        // A timed-out run still bounds the cost from below.
        return "> \(Formatting.nanoseconds(seconds * 1e9 / Double(max(1, summary.elements)))) (\(summary.status))"
    }
    guard summary.status == "ok" else { return summary.status }
    return Formatting.nanoseconds(summary.nsPerElement)
}

var table: [[String]] = []
var processes = 0, runCounts = Set<Int>()
for row in rows {
    let o = results.summary(library: ours, workload: row.ours)
    let p = results.summary(library: peer, workload: row.peer)
    for summary in [o, p].compactMap({ $0 }) {
        processes = max(processes, summary.processes)
        if summary.status == "ok" { runCounts.insert(summary.runsPerProcess) }
    }
    let ratio = results.pairedRatio((ours, row.ours), (peer, row.peer))
    let verdict: String
    if let goal = row.goal, let ratio { verdict = ratio <= goal ? "met" : "MISSED" } else { verdict = "" }
    table.append([
        row.label, cell(o), Formatting.megabytes(kilobytes: o?.peakRSSKB), cell(p),
        Formatting.megabytes(kilobytes: p?.peakRSSKB), Formatting.ratio(ratio),
        row.goal.map { "≤ \(Formatting.ratio($0))" } ?? "", verdict,
    ])
}
print(Formatting.table(
    header: ["workload", "ours ns/el", "ours RSS", "OpenCombine ns/el", "OC RSS", "ours/OC", "goal", ""],
    rows: table
))

let plain = results.summary(library: loop, workload: "a.loop")
let oursA = results.summary(library: ours, workload: "a.from")
print("")
print("plain for-loop (a): \(Formatting.nanoseconds(plain?.nsPerElement)) ns/element", terminator: "")
if let l = plain?.nsPerElement, let a = oursA?.nsPerElement, l > 0,
   let times = results.pairedRatio((ours, "a.from"), (loop, "a.loop")) {
    print("; ours (a) is \(Formatting.ratio(times)) the loop (\(Formatting.nanoseconds(a - l)) ns/element of stream machinery)")
} else {
    print("")
}
let flat = Sizes.zip.map { Formatting.nanoseconds(results.summary(library: ours, workload: "d.\($0)")?.nsPerElement) }
print("zip per pair, ours, n = \(Sizes.zip.map { Formatting.grouped($0) }.joined(separator: " / ")): \(flat.joined(separator: " / ")) ns")
let runs = runCounts.sorted(by: >).map(String.init).joined(separator: " or ")
print("ratios: median of the per-round ratios (each round runs both libraries back to back)")
print("each cell: median over \(processes) process(es) of the median of \(runs) timed run(s) after a warm-up (1 where the warm-up alone took over 10 s); RSS = peak (VmHWM) of the workload's own process")

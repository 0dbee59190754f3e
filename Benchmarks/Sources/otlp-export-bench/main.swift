// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

// The OTLP exporter under load (scripts/bench-otlp-export): ends `--rate` sampled spans a second, each
// like a server span (name, kind, seven attributes, an event), for `--seconds`, on one thread, through
// the real tracer, batch processor and OTLP/HTTP exporter to `--endpoint`; then flushes and prints one
// line of `key=value` figures: spans made, exported, dropped, export failures, CPU seconds, and the
// resident set sampled every second (start, after the first 5 s, highest).
import BenchSupport
import Foundation
import Streams
import Telemetry
import Tracing

#if canImport(Glibc)
import Glibc
#endif

func option(_ name: String, _ fallback: String) -> String {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return fallback }
    return arguments[index + 1]
}

func residentKB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

let endpoint = option("--endpoint", "http://127.0.0.1:4318/v1/traces")
let rate = Int(option("--rate", "20000"))!
let seconds = min(Int(option("--seconds", "10"))!, 600)
var settings = TracingSettings(tracesEndpoint: URL(string: endpoint)!)
settings.wireProtocol = option("--protocol", "http/protobuf") == "http/json" ? .json : .protobuf
settings.gzip = option("--compression", "none") == "gzip"
// A schedule delay shorter than the default keeps batches full-sized at this rate either way.
let pipeline = TracingPipeline(settings: settings)
let tracer = pipeline.tracer

let startRSS = residentKB()
var rssAfterWarmup = 0
var highestRSS = startRSS
let startCPU = cpuSeconds()
let start = ContinuousClock.now
var made = 0
let perTick = max(rate / 1000, 1)
// Bounded in count and time: `seconds` of 1 ms ticks.
for tick in 0..<(seconds * 1000) {
    for _ in 0..<perTick {
        let span = tracer.startSpan("GET /users", ofKind: .server)
        span.attributes["http.request.method"] = "GET"
        span.attributes["url.path"] = "/users"
        span.attributes["http.route"] = "/users"
        span.attributes["http.response.status_code"] = 200
        span.attributes["server.address"] = "127.0.0.1"
        span.attributes["server.port"] = 8080
        span.attributes["network.protocol.version"] = "1.1"
        span.addEvent(SpanEvent(name: "cache", attributes: ["outcome": "hit"]))
        span.end()
        made += 1
    }
    if tick % 1000 == 999 {
        let rss = residentKB()
        highestRSS = max(highestRSS, rss)
        if tick == 4999 { rssAfterWarmup = rss }
    }
    let due = start + .milliseconds(tick + 1)
    let now = ContinuousClock.now
    if due > now { usleep(UInt32((due - now).components.attoseconds / 1_000_000_000_000)) }
}
let elapsed = ContinuousClock.now - start
let flushed = DispatchSemaphore(value: 0)
pipeline.processor.forceFlush { flushed.signal() }
_ = flushed.wait(timeout: .now() + 30)
let totals = pipeline.counters.totals
print(
    "made=\(made) seconds=\(elapsed) exported=\(totals.exported) dropped=\(totals.dropped) failures=\(totals.failures)",
    "cpu_s=\(String(format: "%.2f", cpuSeconds() - startCPU)) rss_start_kb=\(startRSS) rss_after_5s_kb=\(rssAfterWarmup) rss_highest_kb=\(highestRSS)")

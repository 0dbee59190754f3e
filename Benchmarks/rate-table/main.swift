// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

// The request cap's table held just under its bound (issue 34): a trusted proxy forwards ever-new
// client addresses at 1,666 requests a second, each left owing 60 s (`--client-request-rate 1/m`),
// so about 99,960 clients are in debt at any time against a bound of 100,000. Before, every
// insertion past the bound filtered and rebuilt the whole table. The clock is simulated, so the
// figure is the table's own CPU per request.
#if canImport(Glibc)
import Glibc
#endif

let rate = 1_666.0
let policy = RatePolicy(name: "requests", count: 1, period: .seconds(60))
let clock = Locked<Double>(1_000)
let limiter = LocalRateLimiter<AddressDebts>(policy: policy, clock: { clock.withLock { $0 } })
var next: UInt64 = 0
var refused = 0

func request() {
    next += 1
    if limiter.takeUnlessRefused(IPAddress(high: 0, low: IPAddress.v4Prefix | (next & 0xFFFF_FFFF))) != nil { refused += 1 }
    clock.withLock { $0 += 1 / rate }
}

for _ in 0..<Int(rate * 60) { request() }
let seconds = Int(CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 10)
let count = Int(rate) * seconds
let started = ContinuousClock.now
for _ in 0..<count { request() }
let elapsed = ContinuousClock.now - started
let total = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
let share = (total / Double(seconds) * 1000).rounded() / 10
print("\(count) requests (\(seconds) s at \(Int(rate))/s) hovering at the bound: \(Int(total * 1000)) ms, "
    + "\(Int(total / Double(count) * 1e9)) ns a request, \(share) % of a core; \(refused) refused")

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Seconds since the epoch from the kernel's coarse clock (a tick, 1–4 ms, behind), for what reads
/// the time on every request: the request cap, token expiry, the Redis pause. `Date()` was a
/// noticeable part of the cap (the figure: Benchmarks/README.md); a budget of units per second or slower,
/// and a token leeway of seconds, do not see a tick.
package enum CoarseClock {
    @Sendable package static func now() -> Double {
        var now = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_REALTIME_COARSE, &now)
        #else
        clock_gettime(CLOCK_REALTIME, &now)
        #endif
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

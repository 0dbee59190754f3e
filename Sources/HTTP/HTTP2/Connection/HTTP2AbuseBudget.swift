// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch

/// A token bucket for frames that cost this side work and give the peer nothing it could not get
/// more cheaply (PING, SETTINGS, PRIORITY, empty DATA and CONTINUATION, resets of unfinished
/// streams, frames of unknown types, WINDOW_UPDATE and RST_STREAM on closed streams, refused
/// streams): the defence against the floods of CVE-2019-9512/9514/9515/9518 and Rapid Reset
/// (CVE-2023-44487). A well-behaved client stays far below the refill rate.
struct HTTP2AbuseBudget: Sendable {
    let capacity: Double
    let refillPerSecond: Double
    private var tokens: Double
    private var updatedAt: UInt64

    init(capacity: Int, refillPerSecond: Int, now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        self.capacity = Double(capacity)
        self.refillPerSecond = Double(refillPerSecond)
        tokens = Double(capacity)
        updatedAt = now
    }

    /// Takes one token; false once the bucket is empty.
    mutating func spend(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        let elapsed = Double(now &- updatedAt) / 1e9
        updatedAt = now
        tokens = min(capacity, tokens + elapsed * refillPerSecond)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}

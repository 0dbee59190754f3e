// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch

/// The conversions of `Duration` that Dispatch, timers, metrics and logs need, in one place
/// (a `Duration` is seconds plus attoseconds: 1 ns = 10⁹ attoseconds).
extension Duration {
    /// This duration in (fractional) seconds, for metrics and logs.
    @inlinable
    package var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }

    /// Whole milliseconds, for JSON fields that report elapsed time.
    @inlinable
    package var milliseconds: Int {
        let (whole, fraction) = components
        return Int(whole) * 1000 + Int(fraction / 1_000_000_000_000_000)
    }

    /// Whole nanoseconds, clamped at zero, for monotonic-clock arithmetic.
    @inlinable
    package var nanoseconds: UInt64 {
        let (whole, fraction) = components
        return UInt64(max(0, whole)) * 1_000_000_000 + UInt64(max(0, fraction) / 1_000_000_000)
    }

    /// This duration as a Dispatch interval, clamped at zero.
    @inlinable
    package var dispatchInterval: DispatchTimeInterval {
        .nanoseconds(Int(clamping: nanoseconds))
    }
}

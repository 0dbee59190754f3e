// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The upstream's `x-ratelimit-reset` (Unix seconds), turned into a wait. The header is the
/// upstream's to write: a reset of `1e300` or `inf` must not trap `Int(_:)`.
enum RateLimitReset {
    /// GitHub's rate-limit windows last an hour; a reset named more than a day ahead is not believed.
    static let longestWait = 86_400

    /// Whole seconds from `now` until `reset`, in 1...`longestWait`; nil when `reset` is not a finite number.
    static func secondsUntil(_ reset: Double, now: Double) -> Int? {
        guard reset.isFinite, now.isFinite else { return nil }
        return Int(min(max(1, (reset - now).rounded(.up)), Double(longestWait)))
    }
}

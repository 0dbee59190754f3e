import StreamServiceConcurrency

/// A token bucket for log lines a client can cause: a burst of `burst` lines, then
/// `perSecond`; what it holds back is counted, and the next line let through says how many.
final class LogRateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var refilledAt: ContinuousClock.Instant
        var suppressed = 0
    }

    let burst: Int
    let perSecond: Double
    private let bucket: Locked<Bucket>

    init(burst: Int, perSecond: Double) {
        self.burst = burst
        self.perSecond = perSecond
        bucket = Locked(Bucket(tokens: Double(burst), refilledAt: .now))
    }

    /// nil when this line is held back; else how many were held back since the last one let through.
    func admit(now: ContinuousClock.Instant = .now) -> Int? {
        bucket.withLock { bucket in
            bucket.tokens = min(Double(burst), bucket.tokens + (now - bucket.refilledAt).seconds * perSecond)
            bucket.refilledAt = now
            guard bucket.tokens >= 1 else {
                bucket.suppressed += 1
                return nil
            }
            bucket.tokens -= 1
            defer { bucket.suppressed = 0 }
            return bucket.suppressed
        }
    }
}

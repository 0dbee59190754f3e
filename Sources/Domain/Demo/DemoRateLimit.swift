#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StreamServiceConcurrency

/// The demo upstream's rate limit, shaped like GitHub's primary limit: a budget of requests
/// per hour window, reported in `x-ratelimit-*` headers, then 403 until the reset. With a
/// limit set, a seeded 1 in 20 of the counted requests also gets a 429 with `retry-after: 1`,
/// like GitHub's secondary limit on bursts. Without one, the headers show GitHub's 5,000
/// and nothing is refused.
final class DemoRateLimit: Sendable {
    enum Verdict: Equatable {
        case allowed
        /// The hour's budget is spent; the window resets at `reset` (epoch seconds).
        case exhausted
        /// A burst answered 429, to be retried after this many seconds.
        case throttled(retryAfter: Int)
    }

    struct Window {
        var start: Date?
        var used = 0
        var throttle: StableHash
    }

    static let window: TimeInterval = 3600
    static let nominalLimit = 5000
    static let throttleOneIn: UInt64 = 20

    /// Requests per hour; 0 = not enforced.
    let enforcedLimit: Int
    private let state: Locked<Window>

    init(limit: Int, seed: Int) {
        enforcedLimit = max(0, limit)
        state = Locked(Window(throttle: StableHash(seed &+ 7919)))
    }

    var limit: Int { enforcedLimit > 0 ? enforcedLimit : Self.nominalLimit }

    /// Counts one API request against the window (or refuses it).
    func admit(now: Date) -> Verdict {
        state.withLock { window in
            Self.roll(&window, now: now)
            if enforcedLimit > 0 {
                guard window.used < enforcedLimit else { return .exhausted }
                if window.throttle.next() % Self.throttleOneIn == 0 { return .throttled(retryAfter: 1) }
            }
            window.used += 1
            return .allowed
        }
    }

    /// `x-ratelimit-*` as GitHub sends them.
    func headers(now: Date) -> [String: String] {
        let (used, reset) = state.withLock { window -> (Int, Int) in
            Self.roll(&window, now: now)
            return (window.used, Int((window.start ?? now).timeIntervalSince1970 + Self.window))
        }
        return [
            "X-RateLimit-Limit": String(limit), "X-RateLimit-Remaining": String(max(0, limit - used)),
            "X-RateLimit-Reset": String(reset), "X-RateLimit-Used": String(used), "X-RateLimit-Resource": "core",
        ]
    }

    /// The `/rate_limit` body's `core` entry.
    func core(now: Date) -> DemoJSON {
        let headers = headers(now: now)
        return .object([
            "limit": .int(limit), "remaining": .int(Int(headers["X-RateLimit-Remaining"]!)!),
            "reset": .int(Int(headers["X-RateLimit-Reset"]!)!), "used": .int(Int(headers["X-RateLimit-Used"]!)!),
            "resource": .string("core"),
        ])
    }

    private static func roll(_ window: inout Window, now: Date) {
        if let start = window.start, now.timeIntervalSince(start) < Self.window { return }
        window.start = now
        window.used = 0
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
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

    /// The window as `x-ratelimit-*` and `/rate_limit` report it.
    struct Snapshot: Equatable {
        let limit: Int
        let used: Int
        /// Epoch seconds at which the window starts over.
        let reset: Int

        var remaining: Int { max(0, limit - used) }

        /// `x-ratelimit-*` as GitHub sends them, in name order. Every other field the demo
        /// sends sorts before `X-`, so these go last and a stored answer's fields stay a prefix.
        func appendFields(to fields: inout HTTPHeaders) {
            fields.add(name: "X-RateLimit-Limit", value: String(limit))
            fields.add(name: "X-RateLimit-Remaining", value: String(remaining))
            fields.add(name: "X-RateLimit-Reset", value: String(reset))
            fields.add(name: "X-RateLimit-Resource", value: "core")
            fields.add(name: "X-RateLimit-Used", value: String(used))
        }
    }

    func snapshot(now: Date) -> Snapshot {
        state.withLock { window in
            Self.roll(&window, now: now)
            return Snapshot(limit: limit, used: window.used, reset: Int((window.start ?? now).timeIntervalSince1970 + Self.window))
        }
    }

    /// The `/rate_limit` body's `core` entry.
    func core(now: Date) -> DemoJSON {
        let window = snapshot(now: now)
        return .object([
            "limit": .int(window.limit), "remaining": .int(window.remaining), "reset": .int(window.reset), "used": .int(window.used),
            "resource": .string("core"),
        ])
    }

    private static func roll(_ window: inout Window, now: Date) {
        if let start = window.start, now.timeIntervalSince(start) < Self.window { return }
        window.start = now
        window.used = 0
    }
}

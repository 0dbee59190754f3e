// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The `/ticks` contract shared by every server under test: event K is due K × every after the request
/// and reads `id: K` / `data: tick K`, which is what `shared/tools/sse_clients.py` measures lag against.
public struct TickSchedule: Sendable {
    public let origin: ContinuousClock.Instant
    public let every: Duration
    public let count: Int

    public init(origin: ContinuousClock.Instant = .now, every: Duration, count: Int) {
        self.origin = origin
        self.every = every
        self.count = count
    }

    /// Parses `everyMs` and `count` query values, falling back to the benchmark's 100 ms × 50 feed.
    public init(everyMs: Int?, count: Int?) {
        self.init(every: .milliseconds(max(1, everyMs ?? 100)), count: max(0, count ?? 50))
    }

    public func deadline(of tick: Int) -> ContinuousClock.Instant {
        origin + every * tick
    }

    /// Suspends until tick K is due; an absolute deadline keeps the schedule free of drift.
    public func waitFor(tick: Int) async throws {
        try await Task.sleep(until: deadline(of: tick), clock: .continuous)
    }
}

/// Server-Sent Events framing of one tick.
public enum TickEvent {
    public static func text(_ tick: Int) -> String {
        "id: \(tick)\ndata: tick \(tick)\n\n"
    }

    public static func bytes(_ tick: Int) -> [UInt8] {
        Array(text(tick).utf8)
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import NetCore
import Synchronization

/// Decides, from a seeded generator, which demo requests fail and how. The same seed and
/// the same request order give the same failures, so failing runs can be replayed.
public final class FaultInjector: Sendable {
    public enum Fault: Sendable, Equatable {
        case status(Int)
        case truncated
    }

    public let rate: Double
    private let generator: Locked<StableHash>

    public init(rate: Double, seed: Int = 42) {
        self.rate = min(max(rate, 0), 1)
        generator = Locked(StableHash(seed))
    }

    /// `nil` for a healthy answer; otherwise 500, 503 or a cut body, equally likely.
    public func nextFault() -> Fault? {
        guard rate > 0 else { return nil }
        let (roll, kind) = generator.withLock { hash in (hash.next(), hash.next() % 3) }
        let unit = Double(roll >> 11) / Double(1 << 53)
        guard unit < rate else { return nil }
        switch kind {
        case 0: return .status(500)
        case 1: return .status(503)
        default: return .truncated
        }
    }
}

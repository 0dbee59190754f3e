// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A `RandomNumberGenerator` that gives the same sequence for the same seed (xorshift64), for
/// seeded property tests: a fast path checked against its plain twin over generated inputs, or an
/// operator against its composition, where a failing round must repeat to be read.
///
///     var random = SeededRandom(seed: 42)
///     let frames = Int.random(in: 0...12, using: &random)
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Any seed, zero included (xorshift's state must not be zero, so the low bit is set).
    public init(seed: UInt64) {
        state = seed | 1
    }

    public mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}

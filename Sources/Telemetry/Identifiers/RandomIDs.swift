// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization

/// The random bits of new trace and span ids: SplitMix64 over a counter that starts at a seed
/// from the system's generator (getrandom) once per process. A span costs one relaxed atomic
/// add and a few multiplies instead of a getrandom system call per id. The ids need to be
/// unique and uniformly spread (`traceidratio` compares their low bits), not secret: W3C Trace
/// Context asks for randomness, not for cryptographic strength, as the OpenTelemetry SDKs'
/// default generators do.
enum RandomIDs {
    private static let counter = Atomic<UInt64>(SystemRandomNumberGenerator().seed())
    /// SplitMix64's increment (the golden ratio): every value of the counter is visited once.
    private static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// 64 fresh bits.
    static func next() -> UInt64 {
        var z = counter.wrappingAdd(increment, ordering: .relaxed).newValue
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SystemRandomNumberGenerator {
    fileprivate func seed() -> UInt64 {
        var generator = self
        return generator.next()
    }
}

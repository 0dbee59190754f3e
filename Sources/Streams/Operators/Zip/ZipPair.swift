// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The values of two zipped sources waiting for a partner.
@usableFromInline
struct ZipPair<A, B> {
    @usableFromInline var left = RingBuffer<A>()
    @usableFromInline var right = RingBuffer<B>()
    @usableFromInline var leftEnded = false
    @usableFromInline var rightEnded = false

    @inlinable
    init() {}

    @inlinable
    mutating func emitPairs(into outbox: inout Outbox<(A, B)>) {
        while !left.isEmpty, !right.isEmpty, let a = left.popFirst(), let b = right.popFirst() {
            outbox.data((a, b))
        }
        if (leftEnded && left.isEmpty) || (rightEnded && right.isEmpty) {
            left.removeAll()
            right.removeAll()
            outbox.end()
        }
    }
}

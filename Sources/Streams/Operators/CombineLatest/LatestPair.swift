// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The latest values of two combined sources.
struct LatestPair<A, B> {
    var left: A?
    var right: B?
    var leftEnded = false
    var rightEnded = false

    mutating func emit<E>(after event: Event<E>, into outbox: inout Outbox<(A, B)>, isLeft: Bool) {
        switch event {
        case .data:
            if let left, let right { outbox.data((left, right)) }
        case .end:
            let silent = isLeft ? left == nil : right == nil
            if silent || (leftEnded && rightEnded) { outbox.end() }
        case .error:
            break
        }
    }
}

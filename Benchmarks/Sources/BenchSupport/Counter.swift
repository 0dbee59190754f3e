// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization

/// A Sendable tally that watchers/subscribers add to, so both libraries pay the same cost per delivery.
public final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    public init() {}

    public func add(_ amount: Int) {
        value.add(amount, ordering: .relaxed)
    }

    public var total: Int { value.load(ordering: .relaxed) }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization

/// Holds the last value a watcher saw; Sendable so @Sendable watch closures can write to it.
public final class LatestValue: Sendable {
    private let value = Atomic<Int>(0)

    public init() {}

    public func store(_ newValue: Int) {
        value.store(newValue, ordering: .relaxed)
    }

    public var current: Int { value.load(ordering: .relaxed) }
}

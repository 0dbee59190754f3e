// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization

/// Runs requested steps one after another in a loop instead of recursing.
///
/// A step that triggers another request (a synchronous stream ending inside
/// its own subscription, which starts the next one) only bumps a counter; the
/// thread already looping runs the next step once the current one returns.
/// So `concat` of 100,000 synchronous streams or `retry` of a synchronous
/// failure uses constant stack, whichever thread the requests come from.
///
/// Stored inline in the operator's stage (`let`), not an object of its own: one
/// allocation less per `retry` and `redirect` subscription.
@usableFromInline
package struct Trampoline: ~Copyable, Sendable {
    @usableFromInline let requests = Atomic<Int>(0)

    @inlinable
    package init() {}

    /// Runs `step` now, or after the step in progress on some thread returns.
    /// The same `step` must be passed on every call.
    @inlinable
    package func request(_ step: () -> Void) {
        guard requests.add(1, ordering: .acquiringAndReleasing).oldValue == 0 else { return }
        repeat {
            step()
        } while requests.subtract(1, ordering: .acquiringAndReleasing).newValue > 0
    }
}

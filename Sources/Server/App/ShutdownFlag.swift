// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization

/// Raised once when graceful shutdown begins; read by `/ready` and the signal handler.
final class ShutdownFlag: Sendable {
    private let raised = Atomic(false)
    private let draining = Atomic(false)

    /// Raised by SIGUSR1 (`stream-service drain`): `/ready` answers 503 while everything else
    /// still serves, so balancers stop sending new clients before SIGTERM closes the listener.
    var isDraining: Bool { draining.load(ordering: .acquiring) }

    /// True for the first caller only.
    func drain() -> Bool {
        !draining.exchange(true, ordering: .acquiringAndReleasing)
    }

    var isRaised: Bool { raised.load(ordering: .acquiring) }

    /// True for the first caller only.
    func raise() -> Bool {
        !raised.exchange(true, ordering: .acquiringAndReleasing)
    }
}

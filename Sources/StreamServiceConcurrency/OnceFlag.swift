// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization

/// A one-way switch: `set()` returns true for the first caller only, whichever thread wins
/// (a response finished once, a request completed once, a shutdown begun once).
package final class OnceFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    package init() {}

    /// True for the first caller only.
    package func set() -> Bool { !flag.exchange(true, ordering: .acquiringAndReleasing) }

    package var isSet: Bool { flag.load(ordering: .acquiring) }
}

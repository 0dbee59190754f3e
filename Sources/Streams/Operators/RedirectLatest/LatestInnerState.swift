// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Which inner stream of `redirectLatest` is current and whether anything still runs.
struct LatestInnerState {
    var generation: UInt64 = 0
    var innerRunning = false
    var outerEnded = false
}

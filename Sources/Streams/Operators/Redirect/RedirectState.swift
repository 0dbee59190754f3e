// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What `redirect` tracks: running inner streams and source values waiting for a slot.
@usableFromInline
struct RedirectState<Element> {
    @usableFromInline var active = 0
    @usableFromInline var waiting = RingBuffer<Element>()
    @usableFromInline var outerEnded = false

    @inlinable
    init() {}

    @inlinable
    var isFinished: Bool { outerEnded && active == 0 && waiting.isEmpty }
}

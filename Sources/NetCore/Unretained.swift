// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What a readiness or timer handler holds of the object whose source or timer it is: the object
/// neither retained (the source would keep its owner alive) nor referenced weakly. An object ever
/// referenced weakly gets a side table, and from then on each of its retains and releases takes
/// the runtime's slow path (~75–95 instructions instead of ~22): a `ByteStream` is retained and
/// released dozens of times a request.
///
/// Sound only when the object cancels the source or timer on its loop before it goes (a source
/// cancelled on its loop never calls its handler again: `LoopIOSource.cancel`, `LoopTimer.cancel`),
/// so no handler ever reaches a freed object.
package struct Unretained<Object: AnyObject & Sendable>: Sendable {
    private let reference: Unmanaged<Object>

    package init(_ object: Object) {
        reference = .passUnretained(object)
    }

    /// Runs `body` with the object retained for the call: the handler's work may drop the object's
    /// last owner (a connection closed by its `onRead`), and the object then goes when `body` returns.
    @inline(__always)
    package func with(_ body: (Object) -> Void) {
        let object = reference.takeUnretainedValue()
        withExtendedLifetime(object) { body(object) }
    }
}

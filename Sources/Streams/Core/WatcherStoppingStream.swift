// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A stream whose `watch(using:)` begins a subscription on the watcher it is given, so
/// disposing that subscription stops the watcher (it reads `isStopped`, drops later events).
///
/// A one-to-one operator (`map`, `filter`, `call`, `asSingle`, …) over such a stream hands
/// its downstream on instead of starting a subscription of its own: its watcher stops the
/// downstream when disposed (`Watcher.init(handingOnTo:…)`). Over any other `StreamType` it
/// keeps a subscription of its own, which stops the downstream whatever the source does.
@usableFromInline
protocol WatcherStoppingStream: StreamType {}

extension StreamType {
    /// Whether a one-to-one operator over this stream may hand its downstream on; folded
    /// at compile time once the operator is specialised for the stream's type.
    @inlinable
    var stopsItsWatchers: Bool { self is any WatcherStoppingStream }
}

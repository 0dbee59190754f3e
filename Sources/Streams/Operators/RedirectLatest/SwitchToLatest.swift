// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType where Element: StreamType {
    /// Follows only the newest inner stream of a stream of streams, disposing the
    /// previous one when the next arrives (ReactiveX: `switchLatest`/`switch`;
    /// Combine: `switchToLatest()`; ReactiveCocoa: `flatten(.latest)`).
    ///
    ///     outer:            -A-----B-------|
    ///     A:                 -a1-a2-a3 (disposed when B arrives)
    ///     B:                       -b1-b2-|
    ///     switchToLatest(): --a1-a2--b1-b2-|
    ///
    /// `redirectLatest { $0 }`: ends when the outer stream and the newest inner have ended.
    public func switchToLatest() -> DataStream<Element.Element> {
        redirectLatest { $0 }
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Maps each value to a stream and plays those streams one after another,
    /// in order (ReactiveX: concatMap); a serial `redirect`.
    ///
    ///     source:                   -a-b-|
    ///     concatMap { inner($0) }:  --a1-a2-b1-b2-|
    ///
    /// Values arriving while an inner stream runs wait their turn. Synchronous
    /// inner streams follow each other in a loop, not by recursion.
    public func concatMap<Inner: StreamType>(
        _ transform: @escaping @Sendable (Element) throws -> Inner
    ) -> DataStream<Inner.Element> {
        redirect(maxConcurrent: 1, transform)
    }
}

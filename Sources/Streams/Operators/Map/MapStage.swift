// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// One `map` subscription. The value closure captures only this object, so a
/// value goes straight to `receive` without unpacking a closure context.
@usableFromInline
final class MapStage<Input: Sendable, Output: Sendable>: Sendable {
    @usableFromInline let transform: @Sendable (Input) throws -> Output
    @usableFromInline let downstream: Watcher<Output>

    @inlinable
    init(transform: @escaping @Sendable (Input) throws -> Output, downstream: Watcher<Output>) {
        self.transform = transform
        self.downstream = downstream
    }

    /// A throw fails the map's own watcher, which disposes the upstream and passes the error on
    /// (`Watcher.handOnData`).
    @inlinable
    func receive(_ value: Input) throws {
        try downstream.handOnData(try transform(value))
    }
}

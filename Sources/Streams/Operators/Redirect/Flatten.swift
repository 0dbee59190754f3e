// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType where Element: StreamType {
    /// Merges the inner streams of a stream of streams as their values come, at most
    /// `maxConcurrent` at a time (ReactiveX: `merge()` / `merge(maxConcurrent:)`;
    /// Combine: `flatMap { $0 }`; ReactiveCocoa: `flatten(.merge)`, `.concurrent(limit:)`).
    ///
    ///     outer:    -A---B------|
    ///     A:         -a1---a2-|
    ///     B:             -b1-b2-|
    ///     merge():  --a1--b1a2b2-|
    ///
    /// `redirect(maxConcurrent:) { $0 }`: ends when the outer and every inner have ended.
    public func merge(maxConcurrent: Int = .max) -> DataStream<Element.Element> {
        redirect(maxConcurrent: maxConcurrent) { $0 }
    }

    /// Plays the inner streams of a stream of streams one after another, in order
    /// (ReactiveX: `concat()`; Combine: `flatMap(maxPublishers: .max(1))`;
    /// ReactiveCocoa: `flatten(.concat)`).
    ///
    ///     outer:     -A-B---------|
    ///     A:          -a1-a2-|
    ///     B:                  -b1-|     (watched only after A ends)
    ///     concat():  --a1-a2--b1-|
    public func concat() -> DataStream<Element.Element> {
        redirect(maxConcurrent: 1) { $0 }
    }
}

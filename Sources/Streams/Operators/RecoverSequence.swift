// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension DataStream {
    /// The first source, and after its error the next, and so on: each error is replaced by
    /// the following source; the last one's error is delivered, and an end at any point ends
    /// it (ReactiveX: `catch(sequence:)`, formerly `catchError(sequence:)`, RxJava
    /// `onErrorResumeNext` over several fallbacks; Combine: `catch` chained).
    ///
    ///     a:                   -1-#
    ///     b:                      -2-#
    ///     c:                         -3-|
    ///     recover(sequence: [a, b, c]): -1--2--3-|
    ///
    /// A source is watched only when the one before it has failed, and disposed at its end
    /// or error. `recover(sequence: [])` ends at once.
    public static func recover(sequence sources: [any StreamType<Element>]) -> DataStream<Element> {
        guard let last = sources.last else { return .empty() }
        // Built from the last source backwards: each source's error switches to the chain after it.
        return sources.dropLast().reversed().reduce(last.asDataStream()) { rest, source in
            source.recover { _ in rest }
        }
    }
}

extension StreamType {
    /// This stream, then after its error each of `fallbacks` in turn (see `DataStream.recover(sequence:)`).
    ///
    ///     source:                      -1-#
    ///     recover(trying: [b, c]):     -1--2--3-|     (b fails, c ends)
    public func recover(trying fallbacks: [any StreamType<Element>]) -> DataStream<Element> {
        DataStream.recover(sequence: [self] + fallbacks)
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension DataStream {
    /// The sources one after another: the next is watched when the previous ends.
    ///
    ///     a:            -1-2-|
    ///     b:                 -3-4-|
    ///     concat(a, b): -1-2-3-4-|
    ///
    /// An error stops it (later sources are never watched). Synchronous sources
    /// follow each other in a loop, so `concat` of 100,000 of them uses constant stack.
    public static func concat(
        _ first: any StreamType<Element>, _ second: any StreamType<Element>, _ rest: any StreamType<Element>...
    ) -> DataStream<Element> {
        concat([first, second] + rest)
    }

    /// The sources one after another; `concat([])` ends at once.
    public static func concat(_ sources: [any StreamType<Element>]) -> DataStream<Element> {
        DataStream<any StreamType<Element>>.from(sources).redirectAny(maxConcurrent: 1) { RedirectInner(existential: $0) }
    }
}

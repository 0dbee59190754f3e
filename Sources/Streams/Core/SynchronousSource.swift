// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The fusable description of a synchronous, in-memory stream (`from`, `just`,
/// `empty`, and `map`/`filter`/… over those): a function that runs the whole
/// source into a consumer closure ("synchronous fusion").
///
/// `run(stop, body)` feeds each value to `body` in order and returns when the
/// source is exhausted, when `body` returns `false` (a `take` downstream is
/// complete), or when `stop` is disposed (checked before every source value,
/// a relaxed atomic load). A throw from an operator closure leaves `run` as a
/// throw. Operators on such a stream compose closures instead of watchers: no
/// subscription, `Watcher` or atomic per stage. Whoever consumes it (a plain
/// `watch`, an inline `redirect` inner) turns a return into `.end` and a throw
/// into `.error`, so the grammar is that of the unfused chain.
///
/// `runBatches(stop, body)` is the same source cut into batches of at most
/// `batchSize` values, for consumers that take every value (`reduce`, `toArray`):
/// each stage then makes one pass over a batch, so the per-value cost is the
/// operator closures alone, not a framework call per stage as well. It exists
/// only while every stage can run that way: from a sequence source through
/// `map`, `filter`, `compactMap`, `scan` and `skip` (not `take`, which must not
/// pull values past its last one). The values, their order, the error and the
/// result are those of `run`; what differs is that a stage's closure sees a
/// whole batch before the next stage sees its first value, and that `stop` is
/// checked once per batch. A throw at a batch's k-th value first hands the
/// k values before it downstream, then leaves as the throw.
///
/// Each operator's fused stage is an `extension SynchronousSource` in that operator's
/// own file (`map` in `Operators/Map/Map.swift`, `take` in `Operators/Take.swift`, …),
/// always inlined into the public operator so that a capture-free closure is specialized
/// into the stage's loop; this file holds the type, the sources and the batch machinery.
///
/// `depth` counts the composed stages: past `maxDepth` operators stop fusing
/// (see `DataStream.fusable`), so a long chain never nests deeper than the
/// unfused path would.
@usableFromInline
struct SynchronousSource<Element: Sendable>: Sendable {
    @usableFromInline typealias Body = (Element) throws -> Bool
    @usableFromInline typealias Run = @Sendable (_ stop: Disposable, _ body: Body) throws -> Void
    @usableFromInline typealias BatchBody = (UnsafeBufferPointer<Element>) throws -> Void
    @usableFromInline typealias RunBatches = @Sendable (_ stop: Disposable, _ body: BatchBody) throws -> Void

    @usableFromInline let run: Run
    @usableFromInline let runBatches: RunBatches?
    @usableFromInline let depth: Int

    @usableFromInline static var maxDepth: Int { 64 }
    /// A stage's output batch of 8-byte values is then 1 KiB, the most the standard library
    /// puts on the stack without asking the runtime whether the stack has room.
    @usableFromInline static var batchSize: Int { 128 }

    @inlinable
    init(depth: Int, _ run: @escaping Run, batches runBatches: RunBatches? = nil) {
        self.depth = depth
        self.run = run
        self.runBatches = runBatches
    }

    /// Runs the source into `watcher`: values, then `.end`, or `.error` for a throw.
    func deliver(to watcher: Watcher<Element>, stop: Disposable) {
        do {
            try run(stop) { value in
                watcher.data(value)
                return true
            }
            watcher.end()
        } catch {
            watcher.error(error)
        }
    }

    /// Every value, in batches when the stages allow it, else one at a time: for the
    /// consumers that never stop early.
    @inlinable
    func forEachBatch(_ stop: Disposable, _ body: BatchBody) throws {
        if let runBatches {
            try runBatches(stop, body)
            return
        }
        try run(stop) { value in
            try withUnsafePointer(to: value) { try body(UnsafeBufferPointer(start: $0, count: 1)) }
            return true
        }
    }

    // MARK: Sources

    @inlinable
    static func from<S: Sequence & Sendable>(_ sequence: S) -> SynchronousSource<Element> where S.Element == Element {
        SynchronousSource(depth: 0, { stop, body in
            for value in sequence {
                if stop.isDisposedRelaxed { return }
                guard try body(value) else { return }
            }
        }, batches: { stop, body in
            // Contiguous storage (an array) is handed out in place; anything else is copied in.
            let sliced: Void? = try sequence.withContiguousStorageIfAvailable { all in
                var start = 0
                while start < all.count, !stop.isDisposedRelaxed {
                    let end = min(start + batchSize, all.count)
                    try body(UnsafeBufferPointer(rebasing: all[start..<end]))
                    start = end
                }
            }
            guard sliced == nil else { return }
            try withUnsafeTemporaryAllocation(of: Element.self, capacity: batchSize) { buffer in
                var batch = OutputBatch(buffer)
                var iterator = sequence.makeIterator()
                var exhausted = false
                while !exhausted, !stop.isDisposedRelaxed {
                    while batch.count < batchSize {
                        guard let value = iterator.next() else {
                            exhausted = true
                            break
                        }
                        batch.append(value)
                    }
                    try batch.flush(into: body)
                }
            }
        })
    }

    @inlinable
    static func just(_ value: Element) -> SynchronousSource<Element> {
        SynchronousSource(depth: 0) { stop, body in
            if stop.isDisposedRelaxed { return }
            _ = try body(value)
        }
    }

    @inlinable
    static func failure(_ error: Error) -> SynchronousSource<Element> {
        SynchronousSource(depth: 0) { _, _ in throw error }
    }

    @inlinable
    static var empty: SynchronousSource<Element> {
        SynchronousSource(depth: 0) { _, _ in }
    }

    // MARK: Batches

    /// The batched form of a stage over this source (nil if this source has none): `kernel`
    /// turns each input batch into the stage's output batch, at most one output per input
    /// (so the output never outgrows `batchSize`), carrying `state` from batch to batch
    /// (`()` for the stateless stages).
    /// A throw hands the outputs before it downstream, then leaves.
    ///
    /// `kernel` is a closure of its own that captures only the operator's closure: when that
    /// is a literal without captures, the optimizer specializes `kernel` for it and the loop
    /// runs with the operator's closure inlined. That needs the kernel formed in the caller's
    /// code, which is why the public operators with a fused form are `@inline(__always)` and
    /// keep their watcher-based form in a function of its own.
    @inlinable
    func batches<Result, State: Sendable>(
        state initial: State,
        _ kernel: @escaping @Sendable (UnsafeBufferPointer<Element>, inout OutputBatch<Result>, inout State) throws -> Void
    ) -> SynchronousSource<Result>.RunBatches? {
        guard let upstream = runBatches else { return nil }
        return { stop, body in
            try withUnsafeTemporaryAllocation(of: Result.self, capacity: Self.batchSize) { buffer in
                var output = OutputBatch(buffer)
                var state = initial
                try upstream(stop) { input in
                    do {
                        try kernel(input, &output, &state)
                    } catch {
                        try output.flush(into: body)
                        throw error
                    }
                    try output.flush(into: body)
                }
            }
        }
    }
}

/// The values a batch stage has produced so far, initialized in place in a temporary buffer.
@usableFromInline
struct OutputBatch<Element> {
    @usableFromInline let base: UnsafeMutablePointer<Element>
    @usableFromInline var count = 0

    @inlinable
    init(_ buffer: UnsafeMutableBufferPointer<Element>) {
        base = buffer.baseAddress!
    }

    @inlinable
    mutating func append(_ value: Element) {
        (base + count).initialize(to: value)
        count += 1
    }

    /// Hands the values downstream (if any) and empties the batch, also when `body` throws.
    @inlinable
    mutating func flush(into body: (UnsafeBufferPointer<Element>) throws -> Void) throws {
        guard count > 0 else { return }
        defer {
            base.deinitialize(count: count)
            count = 0
        }
        try body(UnsafeBufferPointer(start: base, count: count))
    }
}

extension StreamType {
    /// This stream's fusable description, if it is a synchronous in-memory `DataStream`
    /// and another stage still fits under `SynchronousSource.maxDepth`.
    @inlinable
    var fusable: SynchronousSource<Element>? {
        guard let source = (self as? DataStream<Element>)?.synchronousSource,
              source.depth < SynchronousSource<Element>.maxDepth else { return nil }
        return source
    }
}

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
/// `depth` counts the composed stages: past `maxDepth` operators stop fusing
/// (see `DataStream.fusable`), so a long chain never nests deeper than the
/// unfused path would.
@usableFromInline
struct SynchronousSource<Element: Sendable>: Sendable {
    @usableFromInline typealias Body = (Element) throws -> Bool
    @usableFromInline let run: @Sendable (_ stop: Disposable, _ body: Body) throws -> Void
    @usableFromInline let depth: Int

    @usableFromInline static var maxDepth: Int { 64 }

    @inlinable
    init(depth: Int, _ run: @escaping @Sendable (_ stop: Disposable, _ body: Body) throws -> Void) {
        self.depth = depth
        self.run = run
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

    // MARK: Sources

    @inlinable
    static func from<S: Sequence & Sendable>(_ sequence: S) -> SynchronousSource<Element> where S.Element == Element {
        SynchronousSource(depth: 0) { stop, body in
            for value in sequence {
                if stop.isDisposedRelaxed { return }
                guard try body(value) else { return }
            }
        }
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

    // MARK: Stages

    @inlinable
    func map<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) throws -> Result
    ) -> SynchronousSource<Result> {
        let upstream = self
        return SynchronousSource<Result>(depth: depth + 1) { stop, body in
            try upstream.run(stop) { value in try body(try transform(value)) }
        }
    }

    @inlinable
    func filter(_ isIncluded: @escaping @Sendable (Element) throws -> Bool) -> SynchronousSource<Element> {
        let upstream = self
        return SynchronousSource(depth: depth + 1) { stop, body in
            try upstream.run(stop) { value in try isIncluded(value) ? try body(value) : true }
        }
    }

    @inlinable
    func compactMap<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) throws -> Result?
    ) -> SynchronousSource<Result> {
        let upstream = self
        return SynchronousSource<Result>(depth: depth + 1) { stop, body in
            try upstream.run(stop) { value in
                guard let result = try transform(value) else { return true }
                return try body(result)
            }
        }
    }

    @inlinable
    func scan<Result: Sendable>(
        _ initial: Result, _ next: @escaping @Sendable (Result, Element) throws -> Result
    ) -> SynchronousSource<Result> {
        let upstream = self
        return SynchronousSource<Result>(depth: depth + 1) { stop, body in
            var accumulated = initial
            try upstream.run(stop) { value in
                accumulated = try next(accumulated, value)
                return try body(accumulated)
            }
        }
    }

    /// Folds the values and emits the result once the upstream is done (not when stopped).
    @inlinable
    func reduce<Result: Sendable>(
        _ initial: Result, _ next: @escaping @Sendable (Result, Element) throws -> Result
    ) -> SynchronousSource<Result> {
        let upstream = self
        return SynchronousSource<Result>(depth: depth + 1) { stop, body in
            var accumulated = initial
            try upstream.run(stop) { value in
                accumulated = try next(accumulated, value)
                return true
            }
            if stop.isDisposedRelaxed { return }
            _ = try body(accumulated)
        }
    }

    @inlinable
    func toArray() -> SynchronousSource<[Element]> {
        let upstream = self
        return SynchronousSource<[Element]>(depth: depth + 1) { stop, body in
            var collected: [Element] = []
            try upstream.run(stop) { value in
                collected.append(value)
                return true
            }
            if stop.isDisposedRelaxed { return }
            _ = try body(collected)
        }
    }

    @inlinable
    func skip(_ count: Int) -> SynchronousSource<Element> {
        let upstream = self
        return SynchronousSource(depth: depth + 1) { stop, body in
            var remaining = count
            try upstream.run(stop) { value in
                if remaining > 0 {
                    remaining -= 1
                    return true
                }
                return try body(value)
            }
        }
    }

    /// The first `count` values (`count > 0`); returning `false` after the last one completes the stream.
    @inlinable
    func take(_ count: Int) -> SynchronousSource<Element> {
        let upstream = self
        return SynchronousSource(depth: depth + 1) { stop, body in
            var remaining = count
            try upstream.run(stop) { value in
                remaining -= 1
                return try body(value) && remaining > 0
            }
        }
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

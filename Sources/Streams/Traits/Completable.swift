// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A stream with no values, only an outcome: `-|` or `-#` (RxSwift: `Completable`;
/// Combine: a publisher of `Never` values, e.g. `ignoreOutput()`; ReactiveSwift:
/// `SignalProducer<Never, Error>`).
///
///     save(user).asCompletable():                   ----|
///     completable.andThen(Single.just(5)):          ----5|
///
/// `try await completable.value` returns when it ends and throws its error.
public struct Completable: StreamType, WatcherStoppingStream {
    /// A completable sends no values.
    public typealias Element = Never

    let stream: DataStream<Never>

    init(trusted stream: DataStream<Never>) {
        self.stream = stream
    }

    /// A completable from a callback: the first outcome passed to `finish` (`nil` =
    /// ended, an error = failed) decides it (RxSwift: `Completable.create`).
    public init(_ subscribe: @escaping @Sendable (_ finish: @escaping @Sendable (Error?) -> Void) -> Disposable) {
        stream = DataStream { watcher in
            subscribe { error in
                if let error { watcher.error(error) } else { watcher.end() }
            }
        }
    }

    /// Runs async work in a new `Task` per watcher; disposing cancels it.
    public init(_ operation: @escaping @Sendable () async throws -> Void) {
        stream = DataStream<Void>(operation).ignoreValues()
    }

    /// `-|`
    public static func empty() -> Completable {
        Completable(trusted: .empty())
    }

    /// `-#`
    public static func just(error: Error) -> Completable {
        Completable(trusted: .just(error: error))
    }

    @discardableResult
    public func watch(using watcher: Watcher<Never>) -> Disposable {
        stream.watch(using: watcher)
    }

    /// Returns when it ends; throws its error, or `CancellationError`.
    public var value: Void {
        get async throws { _ = try await stream.first() }
    }

    /// `next` once this has ended; an error skips it (RxSwift: `andThen`).
    public func andThen<Next: StreamType>(_ next: Next) -> DataStream<Next.Element> {
        DataStream<Next.Element>.concat(stream.map { never -> Next.Element in }, next)
    }

    /// A single once this has ended (RxSwift: `andThen(Single)`).
    public func andThen<Value>(_ next: Single<Value>) -> Single<Value> {
        Single(trusted: andThen(next.stream))
    }

    /// Re-subscribes after an error, up to `maxRetries` times.
    public func retry(_ maxRetries: Int, retryIf: @escaping @Sendable (Error) -> Bool = { _ in true }) -> Completable {
        Completable(trusted: stream.retry(maxRetries, retryIf: retryIf))
    }
}

extension StreamType {
    /// Only the outcome of this stream, every value dropped (RxSwift: `asCompletable()`
    /// / `ignoreElements()`).
    ///
    ///     -1-2-| → -----|
    public func asCompletable() -> Completable {
        if let completable = self as? Completable { return completable }
        return Completable(trusted: ignoreValues())
    }

    /// The terminal event alone, typed as carrying no values.
    func ignoreValues() -> DataStream<Never> {
        DataStream<Never> { downstream in
            self.watch(using: Watcher.relay { event in
                switch event {
                case .data: break
                case .error(let error): downstream.error(error)
                case .end: downstream.end()
                }
            })
        }
    }
}

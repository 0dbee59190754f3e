// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A stream whose grammar is exactly one value then the end, or an error:
/// `-v|` or `-#` (RxSwift: `Single`; Combine: `Future`/`Deferred<Future>`;
/// ReactiveSwift: a `SignalProducer` by convention only).
///
///     Single.just(5):                       -5|
///     Single { try await fetchUser(id) }:   ----u|     (or ----#)
///     stream.asSingle() over -1-2-|:        ---#       CardinalityError.moreThanOneValue
///     stream.asSingle() over ---|:          ---#       CardinalityError.noValue
///
/// The type is the promise: a caller never needs `take(1)` "just in case", and a
/// source that breaks the promise fails with a `CardinalityError` naming it instead
/// of passing on a surprise. `Single` is a `StreamType`, so every operator accepts it
/// (and returns a plain `DataStream`); the operators below keep the trait.
/// Await it with `try await single.value`.
public struct Single<Element: Sendable>: StreamType, WatcherStoppingStream {
    /// The checked stream: exactly one value then end, or an error.
    let stream: DataStream<Element>

    /// Wraps a stream already known to keep the grammar (the trait's own operators).
    init(trusted stream: DataStream<Element>) {
        self.stream = stream
    }

    /// A single from a callback: the first `Result` passed to `resolve` decides it,
    /// later calls are ignored (RxSwift: `Single.create`).
    ///
    ///     Single<Int> { resolve in
    ///         let request = start { result in resolve(result) }
    ///         return Disposable { request.cancel() }
    ///     }
    public init(_ subscribe: @escaping @Sendable (_ resolve: @escaping @Sendable (Result<Element, Error>) -> Void) -> Disposable) {
        stream = DataStream { watcher in
            subscribe { result in
                switch result {
                case .success(let value):
                    watcher.data(value)
                    watcher.end()
                case .failure(let error):
                    watcher.error(error)
                }
            }
        }
    }

    /// A single whose value comes from an async closure, run in a new `Task` per
    /// watcher; disposing cancels the task (Combine: `Future` from async work).
    public init(_ operation: @escaping @Sendable () async throws -> Element) {
        stream = DataStream(operation)
    }

    /// `-v|`
    public static func just(_ value: Element) -> Single<Element> {
        Single(trusted: .just(value))
    }

    /// `-#`
    public static func just(error: Error) -> Single<Element> {
        Single(trusted: .just(error: error))
    }

    @discardableResult
    public func watch(using watcher: Watcher<Element>) -> Disposable {
        stream.watch(using: watcher)
    }

    /// Watches with one closure receiving the outcome (RxSwift: `subscribe(onSuccess:onFailure:)`).
    @discardableResult
    public func watch(_ handler: @escaping @Sendable (Result<Element, Error>) -> Void) -> Disposable {
        stream.watch(data: { handler(.success($0)) }, error: { handler(.failure($0)) })
    }

    /// The value, awaited; throws the error, or `CancellationError` when the task
    /// is cancelled (which disposes the subscription). RxSwift: `single.value`.
    public var value: Element {
        get async throws {
            guard let value = try await stream.first() else {
                // Only a cancelled task ends the bridge without the one value.
                try Task.checkCancellation()
                throw CardinalityError.noValue(conversion: "Single.value")
            }
            return value
        }
    }

    // MARK: Operators that keep the trait

    /// `-v|` → `-f(v)|`; a throw becomes the error.
    public func map<Result: Sendable>(_ transform: @escaping @Sendable (Element) throws -> Result) -> Single<Result> {
        Single<Result>(trusted: stream.map(transform))
    }

    /// Chains another single on the value (RxSwift: `flatMap`; Combine: `flatMap`).
    public func redirect<Result: Sendable>(_ transform: @escaping @Sendable (Element) throws -> Single<Result>) -> Single<Result> {
        Single<Result>(trusted: stream.redirect(transform))
    }

    /// Replaces an error with `value` (RxSwift: `catchAndReturn`).
    public func recover(_ value: Element) -> Single<Element> {
        Single(trusted: stream.recover(value))
    }

    /// Replaces an error with the single `handler` returns (RxSwift: `catch`).
    public func recover(_ handler: @escaping @Sendable (Error) throws -> Single<Element>) -> Single<Element> {
        Single(trusted: stream.recover(handler))
    }

    /// Re-subscribes after an error, up to `maxRetries` times.
    public func retry(_ maxRetries: Int, retryIf: @escaping @Sendable (Error) -> Bool = { _ in true }) -> Single<Element> {
        Single(trusted: stream.retry(maxRetries, retryIf: retryIf))
    }

    /// Re-subscribes after an error with `backoff` on `scheduler`.
    public func retry(_ maxRetries: Int, backoff: RetryBackoff, scheduler: any Scheduler) -> Single<Element> {
        Single(trusted: stream.retry(maxRetries, backoff: backoff, scheduler: scheduler))
    }

    /// Fails with `StreamTimeoutError` unless the value arrives within `dueTime`.
    public func timeout(_ dueTime: Duration, scheduler: any Scheduler) -> Single<Element> {
        Single(trusted: stream.timeout(dueTime, scheduler: scheduler))
    }

    /// Both values once both singles have one (RxSwift: `Single.zip`; Combine: `Zip`).
    public static func zip<A: Sendable, B: Sendable>(_ a: Single<A>, _ b: Single<B>) -> Single<(A, B)> where Element == (A, B) {
        Single<(A, B)>(trusted: DataStream.zip(a, b))
    }

    /// This single as a maybe (never empty).
    public func asMaybe() -> Maybe<Element> {
        Maybe(trusted: stream)
    }

    /// Only the outcome, the value dropped.
    public func asCompletable() -> Completable {
        Completable(trusted: stream.ignoreValues())
    }
}

extension StreamType {
    /// This stream as a `Single`: its one value on end; fails with
    /// `CardinalityError.moreThanOneValue` at a second value (disposing the source)
    /// or `.noValue` on an end without one (RxSwift: `asSingle()`).
    ///
    ///     -1-|   → ---1|
    ///     -1-2-| → ---#
    ///     ---|   → ---#
    public func asSingle() -> Single<Element> {
        if let single = self as? Single<Element> { return single }
        return Single(trusted: checkedAtMostOne(requireValue: true, conversion: "asSingle()"))
    }
}

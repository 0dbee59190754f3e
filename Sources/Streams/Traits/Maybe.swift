// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A stream whose grammar is at most one value then the end, or an error:
/// `-v|`, `-|` or `-#` (RxSwift: `Maybe`; Combine: a publisher with `first()`;
/// ReactiveSwift: none).
///
///     Maybe.just(5):              -5|
///     Maybe<Int>.empty():         -|
///     stream.asMaybe() over -1-2-|:  ---#   CardinalityError.moreThanOneValue
///
/// `try await maybe.value` is the value or `nil`.
public struct Maybe<Element: Sendable>: StreamType, WatcherStoppingStream {
    let stream: DataStream<Element>

    init(trusted stream: DataStream<Element>) {
        self.stream = stream
    }

    /// `-v|`
    public static func just(_ value: Element) -> Maybe<Element> {
        Maybe(trusted: .just(value))
    }

    /// `-|`
    public static func empty() -> Maybe<Element> {
        Maybe(trusted: .empty())
    }

    /// `-#`
    public static func just(error: Error) -> Maybe<Element> {
        Maybe(trusted: .just(error: error))
    }

    @discardableResult
    public func watch(using watcher: Watcher<Element>) -> Disposable {
        stream.watch(using: watcher)
    }

    /// The value or `nil`, awaited; throws the error or `CancellationError`.
    public var value: Element? {
        get async throws { try await stream.first() }
    }

    /// `-v|` → `-f(v)|`, `-|` → `-|`.
    public func map<Result: Sendable>(_ transform: @escaping @Sendable (Element) throws -> Result) -> Maybe<Result> {
        Maybe<Result>(trusted: stream.map(transform))
    }

    /// The value if `isIncluded` accepts it, else empty.
    public func filter(_ isIncluded: @escaping @Sendable (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(trusted: stream.filter(isIncluded))
    }

    /// A single: the value, or `value` when empty (RxSwift: `ifEmpty(default:)`).
    public func ifEmpty(_ value: Element) -> Single<Element> {
        Single(trusted: DataStream { downstream in
            let sawValue = OperatorState(false)
            return stream.watch(using: Watcher.relay { event in
                switch event {
                case .data(let element):
                    sawValue.withLock { $0 = true }
                    downstream.data(element)
                case .error(let error): downstream.error(error)
                case .end:
                    if !sawValue.withLock({ $0 }) { downstream.data(value) }
                    downstream.end()
                }
            })
        })
    }

    /// This maybe as a single: fails with `CardinalityError.noValue` when empty.
    public func asSingle() -> Single<Element> {
        Single(trusted: stream.checkedAtMostOne(requireValue: true, conversion: "asSingle()"))
    }

    /// Only the outcome, the value dropped.
    public func asCompletable() -> Completable {
        Completable(trusted: stream.ignoreValues())
    }
}

extension StreamType {
    /// This stream as a `Maybe`: its value (if any) on end; fails with
    /// `CardinalityError.moreThanOneValue` at a second value (RxSwift: `asMaybe()`).
    public func asMaybe() -> Maybe<Element> {
        if let maybe = self as? Maybe<Element> { return maybe }
        return Maybe(trusted: checkedAtMostOne(requireValue: false, conversion: "asMaybe()"))
    }
}

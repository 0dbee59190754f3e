// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A stream that cannot fail: `data* end?`, never `.error` (RxSwift 6: `Infallible`;
/// Combine: `Publisher` with `Failure == Never`; ReactiveSwift: `Signal<T, Never>`).
///
///     source:                             -1-2-#
///     asInfallible(onErrorJustReturn: 0): -1-2-0|
///
/// **Why a wrapper and not a typed failure parameter.** Combine spells "cannot fail"
/// as `Failure == Never` on every publisher. Here that would make the failure a
/// second generic parameter of `DataStream`, `Watcher`, `Event` and every operator:
/// every fixed signature (`DataStream<Int>`, `Event.error(Error)`) would change, Swift
/// has no default generic arguments to hide it, and each of the sixty operators
/// would have to carry it through (and through the fused fast path). The guarantee
/// is needed in a few places — UI-like bindings, a `Relay`'s stream, a feed that
/// must survive upstream failures — so it is a type of its own, as in RxSwift 6:
/// the only ways in decide what an error becomes (`asInfallible(onErrorJustReturn:)`,
/// `onErrorFallbackTo:`, `onErrorRecover:`) or cannot produce one (`just`, `from`,
/// relays), and the way out has no error to handle: `watch(data:end:)` and a
/// non-throwing `for await x in stream.values`.
public struct Infallible<Element: Sendable>: StreamType, WatcherStoppingStream {
    let stream: DataStream<Element>

    init(trusted stream: DataStream<Element>) {
        self.stream = stream
    }

    /// An infallible stream from a closure that can only emit values and end.
    ///
    ///     Infallible<Int> { data, end in data(1); end(); return Disposable() }
    public init(_ subscribe: @escaping @Sendable (
        _ data: @escaping @Sendable (Element) -> Void, _ end: @escaping @Sendable () -> Void
    ) -> Disposable) {
        stream = DataStream { watcher in
            subscribe({ watcher.data($0) }, { watcher.end() })
        }
    }

    /// `-v|`
    public static func just(_ value: Element) -> Infallible<Element> {
        Infallible(trusted: .just(value))
    }

    /// The elements in order, then the end.
    public static func from<S: Sequence & Sendable>(_ sequence: S) -> Infallible<Element> where S.Element == Element {
        Infallible(trusted: .from(sequence))
    }

    /// `-|`
    public static func empty() -> Infallible<Element> {
        Infallible(trusted: .empty())
    }

    /// `---`
    public static func never() -> Infallible<Element> {
        Infallible(trusted: .never())
    }

    @discardableResult
    public func watch(using watcher: Watcher<Element>) -> Disposable {
        stream.watch(using: watcher)
    }

    /// Watches with a closure for values and one for the end; there is no error to handle.
    @discardableResult
    public func watch(data: @escaping @Sendable (Element) -> Void, end: (@Sendable () -> Void)? = nil) -> Disposable {
        stream.watch(data: data, end: end)
    }

    /// The values as an `AsyncStream`, iterated without `try`: `for await x in stream.values`.
    /// Ending the loop, or cancelling its task, disposes the subscription. At most 65,536
    /// values wait for a busy consumer; past that the oldest are dropped (failing is not
    /// an option for a stream that cannot fail).
    public var values: AsyncStream<Element> {
        AsyncStream(bufferingPolicy: .bufferingNewest(65_536)) { continuation in
            let subscription = SerialDisposable()
            continuation.onTermination = { _ in subscription.dispose() }
            subscription.replace(with: stream.watch(
                data: { continuation.yield($0) },
                end: { continuation.finish() }
            ))
        }
    }

    /// `-1-2-|` → `-f(1)-f(2)-|`; `transform` cannot throw, so nothing can fail.
    public func map<Result: Sendable>(_ transform: @escaping @Sendable (Element) -> Result) -> Infallible<Result> {
        Infallible<Result>(trusted: stream.map(transform))
    }

    /// Only the values `isIncluded` accepts.
    public func filter(_ isIncluded: @escaping @Sendable (Element) -> Bool) -> Infallible<Element> {
        Infallible(trusted: stream.filter(isIncluded))
    }

    /// Running totals; `next` cannot throw.
    public func scan<Result: Sendable>(_ initial: Result, _ next: @escaping @Sendable (Result, Element) -> Result) -> Infallible<Result> {
        Infallible<Result>(trusted: stream.scan(initial, next))
    }
}

extension StreamType {
    /// Ends with `value` instead of failing (RxSwift: `asInfallible(onErrorJustReturn:)`).
    ///
    ///     -1-2-#  → -1-2-0|
    public func asInfallible(onErrorJustReturn value: Element) -> Infallible<Element> {
        Infallible(trusted: recover(value))
    }

    /// Continues with `fallback` instead of failing (RxSwift: `asInfallible(onErrorFallbackTo:)`).
    public func asInfallible(onErrorFallbackTo fallback: Infallible<Element>) -> Infallible<Element> {
        Infallible(trusted: recover { _ in fallback })
    }

    /// Continues with the infallible stream `handler` picks for the error
    /// (RxSwift: `asInfallible(onErrorRecover:)`).
    public func asInfallible(onErrorRecover handler: @escaping @Sendable (Error) -> Infallible<Element>) -> Infallible<Element> {
        Infallible(trusted: recover { error in handler(error) })
    }
}

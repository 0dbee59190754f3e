/// What `asSingle()` and `asMaybe()` fail with when the stream breaks the trait's
/// promise (RxSwift: `RxError.noElements` / `RxError.moreThanOneElement`; Combine's
/// `Future` cannot break it; ReactiveSwift: none).
public enum CardinalityError: Error, Equatable, CustomStringConvertible {
    /// The stream ended without a value where exactly one was required.
    case noValue(conversion: String)
    /// A second value arrived where at most one was allowed.
    case moreThanOneValue(conversion: String)

    public var description: String {
        switch self {
        case .noValue(let conversion):
            return "\(conversion): the stream ended without a value; exactly one was required"
        case .moreThanOneValue(let conversion):
            return "\(conversion): the stream sent a second value; at most one was allowed"
        }
    }
}

extension StreamType {
    /// Holds the one value back until the end, failing with `CardinalityError`
    /// on a second value (at once, disposing the source) or, when `requireValue`,
    /// on an end without any.
    func checkedAtMostOne(requireValue: Bool, conversion: String) -> DataStream<Element> {
        DataStream { downstream in
            let held = OperatorState<Element?>(nil)
            return self.watch(using: Watcher.relay { event in
                switch event {
                case .data(let value):
                    let second = held.withLock { held -> Bool in
                        if held != nil { return true }
                        held = value
                        return false
                    }
                    if second { downstream.error(CardinalityError.moreThanOneValue(conversion: conversion)) }
                case .error(let error):
                    downstream.error(error)
                case .end:
                    if let value = held.withLock({ $0 }) {
                        downstream.data(value)
                        downstream.end()
                    } else if requireValue {
                        downstream.error(CardinalityError.noValue(conversion: conversion))
                    } else {
                        downstream.end()
                    }
                }
            })
        }
    }
}

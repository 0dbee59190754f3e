// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

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
    ///
    ///     source:                     -1---|        -1-2-|        ---|
    ///     checkedAtMostOne(required): -----1|       ---#          ---#
    func checkedAtMostOne(requireValue: Bool, conversion: String) -> DataStream<Element> {
        oneToOne { downstream in
            let stage = AtMostOneStage(requireValue: requireValue, conversion: conversion, downstream: downstream)
            return self.watch(using: Watcher(
                handingOnTo: downstream,
                onData: { [stage] value in try stage.receive(value) },
                onTerminal: { [stage] event in stage.finish(event) }
            ))
        }
    }
}

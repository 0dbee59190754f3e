// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// One `checkedAtMostOne` subscription (`asSingle`, `asMaybe`): the value held back until
/// the end. The watcher's closures capture only this object, so a subscription costs it and
/// the watcher, where an `OperatorState`, a closure context, a relay's context and a
/// subscription of its own took 5 allocations more than that.
// @unchecked: `held` is only touched between `lock.lock()` and `lock.unlock()`.
final class AtMostOneStage<Element: Sendable>: @unchecked Sendable {
    /// Only the upstream's events touch `held`, one at a time; the lock makes the hand-over
    /// between the threads delivering them visible (see `OperatorState`).
    private let lock = SpinLock()
    /// The value in an object of its own, made when it arrives: a stage's deinit is not
    /// specialised, and an inline `Element?` made it look up `Optional<Element>`'s metadata at run
    /// time, ~590 instructions, once per subscription, where the box costs about 150 (the figure:
    /// Benchmarks/README.md, "Ledger"). As with `DeadlineWaiting`, no stored property's layout
    /// depends on `Element`.
    @exclusivity(unchecked) private var held: HeldValue<Element>?
    let requireValue: Bool
    let conversion: String
    let downstream: Watcher<Element>

    init(requireValue: Bool, conversion: String, downstream: Watcher<Element>) {
        self.requireValue = requireValue
        self.conversion = conversion
        self.downstream = downstream
    }

    /// Holds the first value; a second fails the operator's watcher, disposing the source.
    func receive(_ value: Element) throws {
        lock.lock()
        let second = held != nil
        if !second { held = HeldValue(value) }
        lock.unlock()
        if second { throw CardinalityError.moreThanOneValue(conversion: conversion) }
    }

    /// The held value and the end, or the error the trait's promise calls for.
    func finish(_ event: Event<Element>) {
        switch event {
        case .data:
            break
        case .error(let error):
            downstream.error(error)
        case .end:
            lock.lock()
            let box = held.take()
            lock.unlock()
            if let value = box?.value {
                downstream.data(value)
                downstream.end()
            } else if requireValue {
                downstream.error(CardinalityError.noValue(conversion: conversion))
            } else {
                downstream.end()
            }
        }
    }
}

/// The value an `AtMostOneStage` holds back until the end.
final class HeldValue<Element: Sendable>: Sendable {
    let value: Element

    init(_ value: Element) {
        self.value = value
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// One event and the virtual time, in whole milliseconds of a `TestScheduler`, at which
/// it happened or is to happen (RxTest: `Recorded<Event<T>>`; Combine has no counterpart).
///
///     XCTAssertEqual(recorder.events, [.at(300, .data("ab")), .at(500, .end)])
///     XCTAssertEqual(recorder.events, [.data(300, "ab"), .end(500)])   // the same
public struct Recorded<Element: Sendable>: Sendable {
    /// Virtual milliseconds since the scheduler's zero.
    public let time: Int
    /// What happened.
    public let event: Event<Element>

    /// `event` at virtual time `time` (milliseconds).
    public init(time: Int, event: Event<Element>) {
        self.time = time
        self.event = event
    }

    /// `event` at `milliseconds`.
    public static func at(_ milliseconds: Int, _ event: Event<Element>) -> Recorded {
        Recorded(time: milliseconds, event: event)
    }

    /// A value at `milliseconds` (RxTest: `.next(time, value)`).
    public static func data(_ milliseconds: Int, _ value: Element) -> Recorded {
        Recorded(time: milliseconds, event: .data(value))
    }

    /// A failure at `milliseconds` (RxTest: `.error(time, error)`).
    public static func error(_ milliseconds: Int, _ error: Error) -> Recorded {
        Recorded(time: milliseconds, event: .error(error))
    }

    /// The end at `milliseconds` (RxTest: `.completed(time)`).
    public static func end(_ milliseconds: Int) -> Recorded {
        Recorded(time: milliseconds, event: .end)
    }
}

extension Recorded: Equatable where Element: Equatable {}

extension Recorded: CustomStringConvertible {
    public var description: String { "\(event) at \(time) ms" }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// String marble diagrams, as RxJS and swift-async-algorithms' tests write them:
/// one character per frame of virtual time (10 ms unless told otherwise).
///
///     "-a-b-|"     a at 10 ms, b at 30 ms, the end at 50 ms
///     "--#"        an error at 20 ms
///     "-(ab)-|"    a and b both at 10 ms; the group takes its four characters' frames
///     "a b"        spaces are ignored (they take no time)
///
/// `-` is a frame without events, `|` the end, `#` an error (the one given, or
/// `MarbleError`), `(…)` a group of events at one instant, any other character a
/// value (looked up in `values`, or the character itself as a `String`). For
/// subscription times see `SubscriptionSpan("^--!")`.
public enum Marbles {
    /// 10 ms: short enough that diagrams of debounce-sized times stay readable.
    public static let defaultFrame: Duration = .milliseconds(10)

    /// The timed events `diagram` describes, its values looked up in `values`.
    /// A character that is neither a marble symbol nor a key of `values` is a
    /// programming error in the test and stops it with a message naming it.
    public static func events<Element: Sendable>(
        _ diagram: String, values: [Character: Element], error: Error = MarbleError(),
        frame: Duration = defaultFrame
    ) -> [Recorded<Element>] {
        let step = frame.virtualMilliseconds
        var events: [Recorded<Element>] = []
        var time = 0
        var groupStart: Int?
        for character in diagram where character != " " {
            let now = groupStart ?? time
            switch character {
            case "-": break
            case "(": groupStart = time
            case ")": groupStart = nil
            case "|": events.append(.end(now))
            case "#": events.append(.error(now, error))
            default:
                guard let value = values[character] else {
                    preconditionFailure("marble '\(character)' in \"\(diagram)\" has no value")
                }
                events.append(.data(now, value))
            }
            time += step
        }
        return events
    }

    /// The timed events of a diagram whose values are its characters, as strings.
    public static func events(
        _ diagram: String, error: Error = MarbleError(), frame: Duration = defaultFrame
    ) -> [Recorded<String>] {
        let symbols = Set(diagram).subtracting("-()|# ")
        return events(diagram, values: Dictionary(uniqueKeysWithValues: symbols.map { ($0, String($0)) }),
                      error: error, frame: frame)
    }

    /// The diagram of `events` (the inverse of `events(_:…)` for one-character symbols):
    /// frames from zero to the last event, several events in one frame as a group.
    public static func diagram<Element: Sendable>(
        _ events: [Recorded<Element>], frame: Duration = defaultFrame,
        symbol: (Element) -> String = { String(describing: $0) }
    ) -> String {
        let step = max(1, frame.virtualMilliseconds)
        func mark(_ event: Event<Element>) -> String {
            switch event {
            case .data(let value): return symbol(value)
            case .error: return "#"
            case .end: return "|"
            }
        }
        var text = ""
        var frameIndex = 0
        var remaining = events[...]
        while let next = remaining.first {
            let slot = next.time / step
            if slot > frameIndex {
                text += String(repeating: "-", count: slot - frameIndex)
                frameIndex = slot
            }
            let together = remaining.prefix { $0.time / step == slot }
            remaining = remaining.dropFirst(together.count)
            let marks = together.map { mark($0.event) }.joined()
            let written = together.count == 1 ? marks : "(\(marks))"
            text += written
            frameIndex += written.count
        }
        return text
    }
}

/// The error a `#` marble stands for when the test gives none.
public struct MarbleError: Error, Equatable, CustomStringConvertible {
    /// The marble error.
    public init() {}
    public var description: String { "marble error" }
}

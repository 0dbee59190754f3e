// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// One thing a stream says to its watcher.
///
/// A stream's life follows the grammar `data* (error | end)?`: any number of
/// `.data` values, then at most one terminal event, then nothing.
public enum Event<Element> {
    /// A value.
    case data(Element)
    /// The failure that terminates the stream.
    case error(Error)
    /// The normal end of the stream.
    case end

    /// `true` for `.error` and `.end`, after which nothing more is delivered.
    public var isTerminal: Bool {
        if case .data = self { return false }
        return true
    }

    /// The value carried by a `.data` event.
    public var element: Element? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The error carried by an `.error` event.
    public var error: Error? {
        if case .error(let error) = self { return error }
        return nil
    }
}

extension Event: Sendable where Element: Sendable {}

extension Event: Equatable where Element: Equatable {
    /// Errors compare equal when their descriptions do, which is what tests want.
    public static func == (lhs: Event, rhs: Event) -> Bool {
        switch (lhs, rhs) {
        case (.data(let a), .data(let b)): return a == b
        case (.end, .end): return true
        case (.error(let a), .error(let b)): return String(describing: a) == String(describing: b)
        default: return false
        }
    }
}

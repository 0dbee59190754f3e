// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What the end of a graceful shutdown's deadline did to the connections still open, for
/// `HTTPServerObserver.shutdownDeadlineReached` (the application logs it).
public struct ShutdownDeadline: Sendable, Equatable {
    /// Requests whose handler had not answered: they got a 503 with `Connection: close`.
    public var answered = 0
    /// Streamed responses ended with their last chunk.
    public var ended = 0
    /// Responses still being sent to a slow reader, cut off.
    public var cut = 0
    /// Connections with no request in progress, closed.
    public var idle = 0

    /// A tally with these counts.
    public init(answered: Int = 0, ended: Int = 0, cut: Int = 0, idle: Int = 0) {
        self.answered = answered
        self.ended = ended
        self.cut = cut
        self.idle = idle
    }

    /// What happened to one connection.
    enum Outcome {
        case answered, ended, cut, idle, alreadyClosed
    }

    mutating func count(_ outcome: Outcome) {
        switch outcome {
        case .answered: answered += 1
        case .ended: ended += 1
        case .cut: cut += 1
        case .idle: idle += 1
        case .alreadyClosed: break
        }
    }

    mutating func add(_ other: ShutdownDeadline) {
        answered += other.answered
        ended += other.ended
        cut += other.cut
        idle += other.idle
    }
}

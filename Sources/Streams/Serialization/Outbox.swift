// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The events an operator has decided to send, in order; nothing is queued after a terminal one.
///
/// The oldest event waits in `first`, the rest in a ring buffer: the usual case,
/// one event decided and delivered at once, never touches the buffer.
@usableFromInline
struct Outbox<Element> {
    @usableFromInline var first: Event<Element>?
    @usableFromInline var queue = RingBuffer<Event<Element>>()
    @usableFromInline var isTerminated = false

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { first == nil && queue.isEmpty }

    @inlinable
    mutating func data(_ value: Element) {
        guard !isTerminated else { return }
        push(.data(value))
    }

    @inlinable
    mutating func error(_ error: Error) {
        guard !isTerminated else { return }
        isTerminated = true
        push(.error(error))
    }

    @inlinable
    mutating func end() {
        guard !isTerminated else { return }
        isTerminated = true
        push(.end)
    }

    @inlinable
    mutating func event(_ event: Event<Element>) {
        switch event {
        case .data(let value): data(value)
        case .error(let failure): error(failure)
        case .end: end()
        }
    }

    @inlinable
    mutating func push(_ event: consuming Event<Element>) {
        if first == nil, queue.isEmpty {
            first = consume event
        } else {
            queue.append(event)
        }
    }

    @inlinable
    mutating func next() -> Event<Element>? {
        // Moved out, not copied: a copy of an event is a retain now and a release at the reset
        // per reference its value holds.
        if let event = first.take() { return event }
        return queue.popFirst()
    }
}

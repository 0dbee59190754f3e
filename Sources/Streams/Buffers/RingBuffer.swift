// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A FIFO queue on a circular buffer: O(1) append and removal at the front,
/// so operators that buffer (zip, merge's outbox, redirect's backlog) stay
/// flat per element however long the queue grows.
@usableFromInline
struct RingBuffer<Element> {
    @usableFromInline var storage: [Element?] = []
    @usableFromInline var head = 0
    @usableFromInline var count = 0

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { count == 0 }

    @inlinable
    mutating func append(_ element: Element) {
        if count == storage.count { grow() }
        var slot = head + count
        if slot >= storage.count { slot -= storage.count }
        storage[slot] = element
        count += 1
    }

    /// The oldest element, left in place.
    var first: Element? { count > 0 ? storage[head] : nil }

    @inlinable
    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head].take()
        head += 1
        if head == storage.count { head = 0 }
        count -= 1
        return element
    }

    @inlinable
    mutating func removeAll() {
        storage = []
        head = 0
        count = 0
    }

    @usableFromInline
    mutating func grow() {
        var bigger = [Element?](repeating: nil, count: Swift.max(8, storage.count * 2))
        for offset in 0..<count {
            bigger[offset] = storage[(head + offset) % storage.count].take()
        }
        storage = bigger
        head = 0
    }

    /// The elements from first to last.
    var elements: [Element] {
        (0..<count).compactMap { storage[(head + $0) % storage.count] }
    }
}

extension RingBuffer: Sendable where Element: Sendable {}

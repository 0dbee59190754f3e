// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A first-in first-out queue with O(1) amortised removal from the front, for the
/// events an operator holds back.
struct FIFO<Element> {
    private var storage: [Element] = []
    private var head = 0

    var first: Element? { head < storage.count ? storage[head] : nil }
    var isEmpty: Bool { head == storage.count }

    mutating func append(_ element: Element) {
        storage.append(element)
    }

    @discardableResult
    mutating func removeFirst() -> Element {
        let element = storage[head]
        head += 1
        // Reclaim the consumed prefix once it is at least half the storage.
        if head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    mutating func removeAll() {
        storage = []
        head = 0
    }
}

extension FIFO: Sendable where Element: Sendable {}

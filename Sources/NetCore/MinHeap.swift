/// Something a `MinHeap` can order: `runs(before:)` is a strict order (earlier deadline, then
/// insertion order, for timers).
package protocol HeapOrdered {
    func runs(before other: Self) -> Bool
}

/// A binary min-heap: the timers of an `EpollLoop`.
///
/// HTTP's `EventLoopScheduler` keeps its own heap (`TimerQueue`): although this one is
/// inlinable, the release build does not specialise it in another module. Used there with
/// position tracking added, its unspecialised calls cost 226,000 instructions more per `/users`
/// request (3.69 M → 3.91 M, callgrind); as the scheduler's heap before that, a pop cost about
/// 15,000.
package struct MinHeap<Element: HeapOrdered> {
    @usableFromInline var elements: [Element] = []

    @inlinable
    package init() {}

    @inlinable
    package var first: Element? { elements.first }
    @inlinable
    package var count: Int { elements.count }
    @inlinable
    package var isEmpty: Bool { elements.isEmpty }

    @inlinable
    package mutating func push(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child].runs(before: elements[parent]) else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the first element; the heap must not be empty.
    @inlinable
    package mutating func popFirst() -> Element {
        let first = elements[0]
        let last = elements.removeLast()
        if !elements.isEmpty {
            elements[0] = last
            siftDown(from: 0)
        }
        return first
    }

    /// Drops every element `shouldRemove` picks, then restores the order in O(n).
    @inlinable
    package mutating func removeAll(where shouldRemove: (Element) -> Bool) {
        elements.removeAll(where: shouldRemove)
        for index in stride(from: elements.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
    }

    @inlinable
    mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < elements.count else { return }
            let right = left + 1
            let child = right < elements.count && elements[right].runs(before: elements[left]) ? right : left
            guard elements[child].runs(before: elements[parent]) else { return }
            elements.swapAt(child, parent)
            parent = child
        }
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Something a `TimerHeap` files: it keeps its own position in the heap, so taking it out (a
/// timeout cancelled once its exchange answered) is O(log n) and the heap holds live timers only.
package protocol HeapPositioned: AnyObject {
    /// Position in the heap; -1 while not filed. Written by the heap only.
    var heapIndex: Int { get set }
}

/// Timers, earliest deadline first and first-in first-out at one deadline, each knowing its
/// position: the one timer heap of both loops, NetCore's epoll loop (`EpollTimers`) and HTTP's
/// `EventLoopScheduler` (`TimerQueue`).
///
/// Concrete, its entries holding `any HeapPositioned`, not generic over the timer's type: a
/// generic heap of NetCore was not specialised in HTTP by the release build, and its unspecialised
/// calls cost more than the whole scheduler (Benchmarks/README.md, NetCore/Domain ledger). Here a
/// comparison reads the entry's own fields; only a move writes through the protocol.
/// Entries that were left in place when cancelled (the way before positions) made a heap tens of
/// thousands long under load, since every upstream attempt arms a timeout and cancels it soon after.
package struct TimerHeap {
    package struct Entry {
        package let deadline: UInt64
        /// Filing order: timers due at the same moment run first-in first-out.
        let order: UInt64
        package let timer: any HeapPositioned

        @inline(__always)
        func runs(before other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : order < other.order
        }
    }

    private var entries: [Entry] = []
    private var counter: UInt64 = 0

    package init() {}

    package var first: Entry? { entries.first }
    package var count: Int { entries.count }
    package var isEmpty: Bool { entries.isEmpty }

    /// Files `timer` due at `deadline`; it must not be filed already.
    package mutating func push(_ timer: any HeapPositioned, deadline: UInt64) {
        counter &+= 1
        timer.heapIndex = entries.count
        entries.append(Entry(deadline: deadline, order: counter, timer: timer))
        siftUp(from: entries.count - 1)
    }

    /// Takes the earliest entry out; the heap must not be empty.
    package mutating func popFirst() -> Entry {
        let first = entries[0]
        remove(at: 0)
        return first
    }

    /// Takes `timer` out if it is filed here.
    package mutating func remove(_ timer: any HeapPositioned) {
        let index = timer.heapIndex
        guard index >= 0, index < entries.count, entries[index].timer === timer else { return }
        remove(at: index)
    }

    /// Empties the heap (its loop is going away).
    package mutating func removeAll() {
        for entry in entries { entry.timer.heapIndex = -1 }
        entries.removeAll()
    }

    private mutating func remove(at index: Int) {
        entries[index].timer.heapIndex = -1
        let last = entries.removeLast()
        guard index < entries.count else { return }
        entries[index] = last
        last.timer.heapIndex = index
        if index > 0 && last.runs(before: entries[(index - 1) / 2]) {
            siftUp(from: index)
        } else {
            siftDown(from: index)
        }
    }

    private mutating func siftUp(from start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].runs(before: entries[parent]) else { return }
            swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { return }
            let right = left + 1
            let child = right < entries.count && entries[right].runs(before: entries[left]) ? right : left
            guard entries[child].runs(before: entries[parent]) else { return }
            swapAt(child, parent)
            parent = child
        }
    }

    private mutating func swapAt(_ i: Int, _ j: Int) {
        entries.swapAt(i, j)
        entries[i].timer.heapIndex = i
        entries[j].timer.heapIndex = j
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import XCTest

/// NetCore's `TimerHeap` against its slow twin: the same timers sorted by deadline, then filing order.
final class TimerHeapTests: XCTestCase {
    private final class Timer: HeapPositioned {
        let name: Int
        var heapIndex = -1
        init(_ name: Int) { self.name = name }
    }

    /// Deterministic pseudo-random deadlines with many ties (xorshift).
    private func deadlines(_ count: Int, seed: UInt64) -> [UInt64] {
        var state = seed
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state % 50
        }
    }

    private func drain(_ heap: inout TimerHeap) -> [Int] {
        var names: [Int] = []
        while !heap.isEmpty { names.append((heap.popFirst().timer as! Timer).name) }
        return names
    }

    func testTimersComeOutInDeadlineOrderAndFirstInFirstOutAtOneDeadline() {
        let due = deadlines(500, seed: 42)
        var heap = TimerHeap()
        for (name, deadline) in due.enumerated() { heap.push(Timer(name), deadline: deadline) }
        let sorted = due.indices.sorted { due[$0] != due[$1] ? due[$0] < due[$1] : $0 < $1 }
        XCTAssertEqual(drain(&heap), sorted)
    }

    func testRemovedTimersLeaveTheRestInOrderAndForgetTheirPosition() {
        let due = deadlines(300, seed: 7)
        var heap = TimerHeap()
        let timers = due.indices.map(Timer.init)
        for (timer, deadline) in zip(timers, due) { heap.push(timer, deadline: deadline) }
        let removed = Set(stride(from: 0, to: timers.count, by: 3))
        for name in removed.sorted(by: >) { heap.remove(timers[name]) }
        XCTAssertTrue(removed.allSatisfy { timers[$0].heapIndex == -1 })
        heap.remove(timers[0])
        XCTAssertEqual(heap.count, timers.count - removed.count, "removing a timer twice changes nothing")
        let kept = due.indices.filter { !removed.contains($0) }.sorted { due[$0] != due[$1] ? due[$0] < due[$1] : $0 < $1 }
        XCTAssertEqual(drain(&heap), kept)
    }

    func testATimerOfAnotherHeapIsNotRemoved() {
        var one = TimerHeap(), other = TimerHeap()
        let a = Timer(1), b = Timer(2)
        one.push(a, deadline: 5)
        other.push(b, deadline: 5)
        one.remove(b)
        XCTAssertEqual(one.count, 1)
        XCTAssertEqual(b.heapIndex, 0, "still filed in its own heap")
    }
}

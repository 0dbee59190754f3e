// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The requests waiting for a connection to one origin, a first-come-first-served queue per
/// event loop (nil: callers on no loop), and which of them a freed connection goes to.
///
/// A connection checked in on loop A goes to A's oldest waiter (or one on no loop), so that
/// exchange runs on the thread of the request that made it. Handed out first come first served
/// instead, most exchanges under load (many more fetches waiting than connections, several
/// server loops) run on another loop's thread and their answers cross threads into the
/// request's pipeline, a wake-up each. No waiter is overtaken more than `maxOvertaken` times,
/// though: a loop with few connections would otherwise starve (handing connections to their own
/// loop's waiters only held some answers for seconds).
struct LoopWaiters<Waiter> {
    private struct Queue {
        let loop: ObjectIdentifier?
        var entries: [(id: UInt64, waiter: Waiter)] = []
        var start = 0
        /// Grants that went to a younger waiter of another loop while the head waited.
        var headOvertaken = 0

        var headID: UInt64? { start < entries.count ? entries[start].id : nil }
        var count: Int { entries.count - start }

        mutating func popHead() -> Waiter {
            let waiter = entries[start].waiter
            start += 1
            headOvertaken = 0
            if start == entries.count {
                entries.removeAll(keepingCapacity: true)
                start = 0
            } else if start > 64 && start * 2 > entries.count {
                entries.removeFirst(start)
                start = 0
            }
            return waiter
        }

        mutating func remove(_ id: UInt64) -> Bool {
            guard let position = entries[start...].firstIndex(where: { $0.id == id }) else { return false }
            if position == start { headOvertaken = 0 }
            entries.remove(at: position)
            return true
        }
    }

    /// One queue per loop that has had waiters: a handful (the server's loops, and no loop).
    private var queues: [Queue] = []
    let maxOvertaken: Int

    init(maxOvertaken: Int) {
        self.maxOvertaken = max(0, maxOvertaken)
    }

    var count: Int { queues.reduce(0) { $0 + $1.count } }
    var isEmpty: Bool { queues.allSatisfy { $0.count == 0 } }

    /// Queues `waiter` of `loop`; `id` must grow with every call (it orders waiters across loops).
    mutating func append(_ waiter: Waiter, id: UInt64, loop: ObjectIdentifier?) {
        if let index = queues.firstIndex(where: { $0.loop == loop }) {
            queues[index].entries.append((id, waiter))
        } else {
            queues.append(Queue(loop: loop, entries: [(id, waiter)]))
        }
    }

    /// Leaves the queue; false when `id` is not waiting.
    mutating func remove(_ id: UInt64) -> Bool {
        for index in queues.indices where queues[index].remove(id) { return true }
        return false
    }

    /// The waiter to get a connection of `loop` (nil: a slot, any loop will do): the oldest
    /// waiter of `loop` or of no loop, unless the oldest waiter of all has been overtaken
    /// `maxOvertaken` times already or none of them waits.
    ///
    /// A connection handed to another loop's waiter stays on its own loop: closing it so that
    /// waiter could open one on its loop instead (connections following demand) churned
    /// connections under load, and cost more CPU than the hop it saved.
    mutating func pop(for loop: ObjectIdentifier?) -> Waiter? {
        var oldest: Int?
        var local: Int?
        for index in queues.indices {
            guard let id = queues[index].headID else { continue }
            if oldest.map({ id < queues[$0].headID! }) ?? true { oldest = index }
            if loop != nil, queues[index].loop == loop || queues[index].loop == nil,
               local.map({ id < queues[$0].headID! }) ?? true {
                local = index
            }
        }
        guard let oldest else { return nil }
        guard let local, local != oldest, queues[oldest].headOvertaken < maxOvertaken else {
            return queues[oldest].popHead()
        }
        let chosen = queues[local].headID!
        for index in queues.indices where index != local {
            if let id = queues[index].headID, id < chosen { queues[index].headOvertaken += 1 }
        }
        return queues[local].popHead()
    }
}

import StreamServiceConcurrency
import NetCore

/// The pending work of one `EventLoopScheduler`, earliest first, behind one lock, and the state
/// of the one loop timer that serves it.
///
/// A binary heap of the `ScheduledWork` objects themselves (not NetCore's `MinHeap`, which is
/// not specialised across modules: see there), each knowing its position: cancelling
/// removes it in O(log n), so the heap holds live timers only. Every upstream attempt arms a 5 s
/// timeout and cancels it a few milliseconds later; left in the heap until their deadline (and
/// swept now and then), those made the heap tens of thousands long under load, and its entries
/// (a struct with a reference, through a generic heap) were copied and destroyed about 11,000
/// instructions' worth per `/users` request (callgrind).
final class TimerQueue: Sendable {
    struct State {
        fileprivate(set) var heap: [ScheduledWork] = []
        var source: LoopTimer?
        var armedDeadline: UInt64?
        /// A `fire` job is already queued on the loop for work that was due when added.
        var fireQueued = false
        private var counter: UInt64 = 0

        var first: ScheduledWork? { heap.first }

        /// Files `work` due at `deadline`.
        mutating func push(_ work: ScheduledWork, deadline: UInt64) {
            counter += 1
            work.deadline = deadline
            work.order = counter
            work.heapIndex = heap.count
            heap.append(work)
            siftUp(from: heap.count - 1)
        }

        /// Takes the earliest work out; the heap must not be empty.
        mutating func popFirst() -> ScheduledWork {
            let first = heap[0]
            remove(at: 0)
            return first
        }

        mutating func remove(_ work: ScheduledWork) {
            let index = work.heapIndex
            guard index >= 0, index < heap.count, heap[index] === work else { return }
            remove(at: index)
        }

        /// Empties the heap (the scheduler is going away).
        mutating func removeAll() {
            for work in heap { work.heapIndex = -1 }
            heap.removeAll()
        }

        private mutating func remove(at index: Int) {
            heap[index].heapIndex = -1
            let last = heap.removeLast()
            guard index < heap.count else { return }
            heap[index] = last
            last.heapIndex = index
            if index > 0 && last.runs(before: heap[(index - 1) / 2]) {
                siftUp(from: index)
            } else {
                siftDown(from: index)
            }
        }

        private mutating func siftUp(from start: Int) {
            var child = start
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[child].runs(before: heap[parent]) else { return }
                swapAt(child, parent)
                child = parent
            }
        }

        private mutating func siftDown(from start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1
                guard left < heap.count else { return }
                let right = left + 1
                let child = right < heap.count && heap[right].runs(before: heap[left]) ? right : left
                guard heap[child].runs(before: heap[parent]) else { return }
                swapAt(child, parent)
                parent = child
            }
        }

        private mutating func swapAt(_ i: Int, _ j: Int) {
            heap.swapAt(i, j)
            heap[i].heapIndex = i
            heap[j].heapIndex = j
        }
    }

    let state = Locked(State())

    /// Takes cancelled work out of the heap.
    func remove(_ work: ScheduledWork) {
        state.withLock { $0.remove(work) }
    }
}

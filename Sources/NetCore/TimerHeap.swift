#if os(Linux)
/// The timers of one `EpollLoop`, earliest first. Rescheduling or cancelling a timer leaves
/// its old entry in place and bumps the timer's generation; stale entries are dropped when
/// they reach the top, so every change is one O(log n) push.
struct TimerHeap {
    struct Entry: HeapOrdered {
        let deadline: UInt64
        /// Insertion order: timers due at the same moment run first-in first-out.
        let order: UInt64
        let generation: UInt64
        let timer: LoopTimer.EpollState

        var isCurrent: Bool { timer.isArmed && timer.generation == generation }

        func runs(before other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : order < other.order
        }
    }

    private var heap = MinHeap<Entry>()
    private var counter: UInt64 = 0

    mutating func nextOrder() -> UInt64 {
        counter &+= 1
        return counter
    }

    /// epoll_wait's timeout for the earliest live timer: -1 when there is none, else whole
    /// milliseconds rounded up, so a timer never fires early.
    mutating func timeoutMilliseconds(now: UInt64) -> Int32 {
        dropStale()
        guard let first = heap.first else { return -1 }
        guard first.deadline > now else { return 0 }
        return Int32(clamping: (first.deadline - now + 999_999) / 1_000_000)
    }

    /// Takes every live timer due at `now`, in deadline order, for the caller to run (outside
    /// this mutation, since handlers arm timers); repeating ones are armed again on their grid
    /// (runs missed while the loop was busy merge into this one).
    mutating func takeDue(now: UInt64) -> [LoopTimer.EpollState] {
        var due: [LoopTimer.EpollState] = []
        while let first = heap.first, first.deadline <= now {
            let entry = popFirst()
            guard entry.isCurrent else { continue }
            let timer = entry.timer
            if let interval = timer.interval, interval > 0 {
                let missed = (now - entry.deadline) / interval
                timer.generation &+= 1
                timer.deadline = entry.deadline + (missed + 1) * interval
                push(Entry(deadline: timer.deadline, order: nextOrder(), generation: timer.generation, timer: timer))
            } else {
                timer.scheduled = false
            }
            due.append(timer)
        }
        return due
    }

    mutating func push(_ entry: Entry) {
        heap.push(entry)
        // Stale entries otherwise wait for their deadlines: a connect timeout cancelled at once
        // would stay 10 s. Once they are most of a large heap, sweep them out.
        if heap.count > 1024, heap.count % 1024 == 0 { heap.removeAll { !$0.isCurrent } }
    }

    private mutating func dropStale() {
        while let first = heap.first, !first.isCurrent { _ = heap.popFirst() }
    }

    private mutating func popFirst() -> Entry {
        heap.popFirst()
    }
}
#endif

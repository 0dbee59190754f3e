// Dispatch sources are thread-safe but not yet annotated Sendable on Linux.
@preconcurrency import Dispatch
import StreamServiceConcurrency
import NetCore
import Streams
import Synchronization

/// A scheduler whose work runs on one event loop, with every pending timer
/// in one heap behind a single Dispatch timer armed for the earliest deadline.
///
/// Timed work for a connection (a `/ticks` feed's `interval`) then runs on the
/// loop that writes the response, with no thread hop, and the timers of
/// thousands of feeds cost one Dispatch timer per loop: each time it fires,
/// everything due runs in the same loop turn. A `QueueScheduler` timer per
/// feed costs a Dispatch timer, a wake-up and a queue hop per tick instead,
/// which at 5,000 feeds × 10 ticks a second keeps the cores busy switching threads.
///
/// Work never runs before its deadline; it may run up to `leeway` late, the
/// slack that lets Dispatch and the kernel batch wake-ups.
public final class EventLoopScheduler: RepeatingScheduler {
    public let loop: EventLoop
    private let leeway: DispatchTimeInterval
    private let epoch = DispatchTime.now().uptimeNanoseconds
    private let timers = Locked(Timers())

    public init(loop: EventLoop, leeway: Duration = .milliseconds(1)) {
        self.loop = loop
        self.leeway = .nanoseconds(Int(leeway.nanoseconds))
    }

    public var now: Duration { .nanoseconds(DispatchTime.now().uptimeNanoseconds &- epoch) }

    public func schedule(_ work: @escaping @Sendable () -> Void) {
        loop.execute(work)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> Disposable {
        add(ScheduledWork(work: work, period: nil), after: delay)
    }

    public func scheduleRepeating(after delay: Duration, every period: Duration, _ work: @escaping @Sendable () -> Void) -> Disposable {
        add(ScheduledWork(work: work, period: max(1, period.nanoseconds)), after: delay)
    }

    /// Timers waiting in the heap, cancelled ones included until they are swept out.
    var pendingCount: Int { timers.withLock { $0.heap.count } }

    private func add(_ scheduled: ScheduledWork, after delay: Duration) -> Disposable {
        let now = DispatchTime.now().uptimeNanoseconds
        let deadline = now + delay.nanoseconds
        let fireNow = timers.withLock { timers -> Bool in
            timers.push(TimerEntry(deadline: deadline, work: scheduled, order: timers.nextOrder))
            // Already due (a feed's first tick): a queued job is far cheaper than re-arming the Dispatch timer.
            guard deadline <= now else {
                armIfEarlier(&timers)
                return false
            }
            defer { timers.fireQueued = true }
            return !timers.fireQueued
        }
        if fireNow { loop.execute { [self] in fire(timerExpired: false) } }
        return Disposable { [weak self] in
            guard scheduled.cancel() else { return }
            self?.timers.withLock { $0.noteCancelled() }
        }
    }

    /// Runs every timer that is due, re-files the repeating ones, and re-arms for the next deadline.
    private func fire(timerExpired: Bool) {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = timers.withLock { timers -> [ScheduledWork] in
            if timerExpired { timers.armedDeadline = nil } else { timers.fireQueued = false }
            var due: [ScheduledWork] = []
            while let first = timers.heap.first, first.deadline <= now {
                let entry = timers.popFirst()
                guard entry.work.isPending else {
                    timers.cancelledInHeap -= 1
                    continue
                }
                due.append(entry.work)
                if let period = entry.work.period {
                    // Next run on the original grid; runs missed while late are merged into this one.
                    let missed = (now - entry.deadline) / period
                    timers.push(TimerEntry(deadline: entry.deadline + (missed + 1) * period, work: entry.work, order: timers.nextOrder))
                }
            }
            armIfEarlier(&timers)
            return due
        }
        // Feeds due together send in one batch: a last tick and the end of its response share a segment.
        loop.batchingWrites {
            for scheduled in due { scheduled.runIfPending() }
        }
    }

    private func armIfEarlier(_ timers: inout Timers) {
        guard let earliest = timers.heap.first?.deadline else { return }
        if let armed = timers.armedDeadline, armed <= earliest { return }
        let source = timers.source ?? {
            let source = loop.makeTimer()
            source.setEventHandler { [weak self] in self?.fire(timerExpired: true) }
            source.activate()
            timers.source = source
            return source
        }()
        timers.armedDeadline = earliest
        source.schedule(deadline: DispatchTime(uptimeNanoseconds: earliest), leeway: leeway)
    }

    deinit {
        timers.withLock { $0.source?.cancel() }
    }
}

/// One scheduled piece of work; `state` makes run and cancel race-free.
///
/// Cancelling one-shot work drops its closure at once: a cancelled upstream timeout stays in
/// the heap until its deadline (5 s), and its closure holds the whole exchange's subscription
/// chain; at 15,000 timeouts a second that kept about 75,000 chains alive.
// @unchecked: `work` is read only by the thread whose compare-exchange moved `state` from pending
// (to done, or for repeating work while it stays pending) and cleared only by the one that moved it
// to cancelled, and only for one-shot work, so no two threads touch it at once.
private final class ScheduledWork: @unchecked Sendable {
    private var work: (@Sendable () -> Void)?
    /// Nanoseconds between runs of repeating work; nil for one-shot work.
    let period: UInt64?
    private let state = Atomic<UInt8>(ScheduledWork.pending)
    private static let pending: UInt8 = 0, done: UInt8 = 1, cancelled: UInt8 = 2

    init(work: @escaping @Sendable () -> Void, period: UInt64?) {
        self.work = work
        self.period = period
    }

    var isPending: Bool { state.load(ordering: .acquiring) == Self.pending }

    /// True when this call cancelled work that had not run (and, if repeating, was still scheduled).
    func cancel() -> Bool {
        guard state.compareExchange(expected: Self.pending, desired: Self.cancelled, ordering: .acquiringAndReleasing).exchanged else {
            return false
        }
        if period == nil { work = nil }
        return true
    }

    func runIfPending() {
        if period == nil {
            guard state.compareExchange(expected: Self.pending, desired: Self.done, ordering: .acquiringAndReleasing).exchanged else { return }
        } else {
            guard isPending else { return }
        }
        work?()
    }
}

private struct TimerEntry: HeapOrdered {
    let deadline: UInt64
    let work: ScheduledWork
    /// Insertion order, so timers with the same deadline run first-in first-out.
    let order: UInt64

    func runs(before other: TimerEntry) -> Bool {
        deadline != other.deadline ? deadline < other.deadline : order < other.order
    }
}

/// A binary min-heap of timers plus the state of the one Dispatch timer that serves them.
private struct Timers {
    var heap = MinHeap<TimerEntry>()
    var source: LoopTimer?
    var armedDeadline: UInt64?
    /// A `fire` job is already queued on the loop for work that was due when added.
    var fireQueued = false
    var cancelledInHeap = 0
    private var counter: UInt64 = 0

    var nextOrder: UInt64 {
        mutating get {
            counter += 1
            return counter
        }
    }

    mutating func push(_ entry: TimerEntry) {
        heap.push(entry)
    }

    mutating func popFirst() -> TimerEntry {
        heap.popFirst()
    }

    /// Cancelled timers stay in the heap until their deadline; once they are most of it,
    /// they are swept out so cancelled long timeouts cannot pile up.
    mutating func noteCancelled() {
        cancelledInHeap += 1
        guard cancelledInHeap > 1024, cancelledInHeap * 2 > heap.count else { return }
        heap.removeAll { !$0.work.isPending }
        cancelledInHeap = 0
    }
}

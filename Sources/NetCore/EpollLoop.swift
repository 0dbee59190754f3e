// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if os(Linux)
import CEpoll
import StreamServiceConcurrency
import Dispatch
import Glibc
import Synchronization

/// The Linux engine of an `EventLoop`: one thread of its own that waits on its own epoll
/// instance, runs the readiness handlers, the timers and the queued work, all in that thread.
///
/// Why not Dispatch sources: with them every readiness event goes through libdispatch's
/// manager thread (its own epoll) and is then handed to a queue worker, two wake-ups and a
/// thread hop per event; profiled under a load of small answers that manager thread was about a
/// quarter of the server's CPU. Here the thread that waits is the thread that serves.
// @unchecked: the task inbox is behind a lock; everything else is confined to the loop thread.
final class EpollLoop: @unchecked Sendable {
    private let epollFD: Int32
    /// An eventfd in the epoll set: other threads write it to wake the loop for queued work.
    private let wakeFD: Int32
    private let inbox = Locked(Inbox())
    private let stopRequested = Atomic<Bool>(false)
    /// `pthread_self()` of the loop thread, 0 until it has started.
    private let threadID = Atomic<UInt>(0)

    // Loop-confined: no two accesses overlap, so no run-time exclusivity checks either.
    @exclusivity(unchecked) private var registrations: [EpollRegistration?] = []
    @exclusivity(unchecked) private var timers = EpollTimers()
    @exclusivity(unchecked) private var running: [@Sendable () -> Void] = []
    /// The `EventLoop` this engine runs, whose write batch spans each turn's readiness handlers.
    /// Not retained: the `EventLoop`'s deinit is what stops this thread, and it clears the reference
    /// on this thread first (not weak: see `CurrentEventLoop.Reference`). Set by the loop's first task.
    @exclusivity(unchecked) private var owner: CurrentEventLoop.Reference?

    private struct Inbox {
        var tasks: [@Sendable () -> Void] = []
        /// The eventfd has been written since the loop last took the tasks.
        var wakePending = false
    }

    init(name: String) {
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        precondition(epollFD >= 0 && wakeFD >= 0, "epoll_create1/eventfd failed: errno \(errno)")
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = wakeFD
        epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event)
        startThread(name: name)
    }

    deinit {
        close(wakeFD)
        close(epollFD)
    }

    var inLoop: Bool { threadID.load(ordering: .relaxed) == UInt(pthread_self()) }

    /// Queues `work` for the loop thread; wakes it only when it may be asleep and not yet woken.
    func execute(_ work: @escaping @Sendable () -> Void) {
        if inLoop {
            // The loop takes its inbox again before it next waits, so no wake-up is needed.
            inbox.withLock { $0.tasks.append(work) }
            return
        }
        let wake = inbox.withLock { inbox -> Bool in
            inbox.tasks.append(work)
            guard !inbox.wakePending else { return false }
            inbox.wakePending = true
            return true
        }
        if wake {
            var one: UInt64 = 1
            _ = write(wakeFD, &one, 8)
        }
    }

    /// Runs `body` now when on the loop thread, else queues it: how sources and timers made off
    /// the loop (or released there) keep their loop-confined state on the loop.
    func perform(_ body: @escaping @Sendable () -> Void) {
        if inLoop { body() } else { execute(body) }
    }

    /// Asks the thread to end after its current turn; queued work still runs first.
    func stop() {
        stopRequested.store(true, ordering: .releasing)
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Call on the loop thread.
    func adopt(_ owner: CurrentEventLoop.Reference) {
        self.owner = owner
    }

    // MARK: Readiness

    func registration(for fd: Int32) -> EpollRegistration {
        let index = Int(fd)
        if index >= registrations.count {
            registrations.append(contentsOf: repeatElement(nil, count: max(index + 1 - registrations.count, registrations.count)))
        }
        if let existing = registrations[index] { return existing }
        let created = EpollRegistration(fd: fd)
        registrations[index] = created
        return created
    }

    /// Brings the kernel's interest set in line with what `registration` wants. No interest
    /// at all removes the descriptor: epoll reports hang-ups even for an empty mask, which
    /// would wake the loop again and again for a connection whose reading is paused.
    func update(_ registration: EpollRegistration) {
        let wanted = registration.wantedEvents
        if wanted != registration.registeredEvents {
            var event = epoll_event()
            event.events = wanted
            event.data.fd = registration.fd
            let operation = registration.registeredEvents == 0 ? EPOLL_CTL_ADD : (wanted == 0 ? EPOLL_CTL_DEL : EPOLL_CTL_MOD)
            // A descriptor already closed elsewhere fails here; it has nothing left to report either way.
            _ = epoll_ctl(epollFD, operation, registration.fd, &event)
            registration.registeredEvents = wanted
        }
        if registration.isUnused, Int(registration.fd) < registrations.count, registrations[Int(registration.fd)] === registration {
            registrations[Int(registration.fd)] = nil
        }
    }

    // MARK: Timers

    func arm(_ timer: LoopTimer.EpollState, deadline: UInt64) {
        timers.arm(timer, deadline: deadline)
    }

    func disarm(_ timer: LoopTimer.EpollState) {
        timers.disarm(timer)
    }

    // MARK: The loop

    private func startThread(name: String) {
        let context = Unmanaged.passRetained(ThreadContext(loop: self, name: name)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { raw in
            let context = Unmanaged<ThreadContext>.fromOpaque(raw!).takeRetainedValue()
            _ = cepoll_name_current_thread(String(context.name.suffix(15)))
            context.loop.run()
            return nil
        }, context)
        precondition(created == 0, "pthread_create failed: \(created)")
        pthread_detach(thread)
    }

    private final class ThreadContext {
        let loop: EpollLoop
        let name: String

        init(loop: EpollLoop, name: String) {
            self.loop = loop
            self.name = name
        }
    }

    private func run() {
        threadID.store(UInt(pthread_self()), ordering: .relaxed)
        // 256 events a turn: at 10,000+ connections a busy turn still returns to timers and queued work often.
        let capacity: Int32 = 256
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: Int(capacity))
        defer { events.deallocate() }
        while !stopRequested.load(ordering: .acquiring) {
            let hasTasks = inbox.withLock { !$0.tasks.isEmpty }
            let timeout = hasTasks ? 0 : timers.timeoutMilliseconds(now: DispatchTime.now().uptimeNanoseconds)
            let count = epoll_wait(epollFD, events, capacity, timeout)
            if count < 0 {
                precondition(errno == EINTR, "epoll_wait failed: errno \(errno)")
                continue
            }
            // One write batch per turn's handlers: the answers they write leave together once all of
            // them ran. Sent one by one, each send woke its client, which then preempted this thread in
            // the middle of the turn while the turn's other connections waited (the p99 of 64 clients
            // fell by a third: Benchmarks/README.md, NetCore/Domain ledger). A turn with one ready
            // descriptor has nobody waiting behind its answer and skips the batch's copy: one client's
            // answers are never copied into a batch.
            // `owner.loop` retained for the turn: a handler may drop the loop's last reference.
            if count > 1, let eventLoop = owner?.loop {
                eventLoop.batchingWrites { deliver(events, count: Int(count)) }
            } else {
                deliver(events, count: Int(count))
            }
            // A handler may cancel a timer due in the same turn: it then does not run.
            for timer in timers.takeDue(now: DispatchTime.now().uptimeNanoseconds) where !timer.cancelled { timer.handler?() }
            runTasks()
        }
        runTasks()
        registrations = []
        timers = EpollTimers()
    }

    private func deliver(_ events: UnsafeMutablePointer<epoll_event>, count: Int) {
        for index in 0..<count { deliver(events[index]) }
    }

    private func deliver(_ event: epoll_event) {
        let fd = event.data.fd
        if fd == wakeFD {
            var value: UInt64 = 0
            _ = read(wakeFD, &value, 8)
            return
        }
        guard Int(fd) < registrations.count, let registration = registrations[Int(fd)] else { return }
        let readable = event.events & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0
        let writable = event.events & (EPOLLOUT.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0
        if readable, registration.read.isActive { registration.read.handler?() }
        // The read handler may have cancelled or paused the write side: ask again.
        if writable, registration.write.isActive { registration.write.handler?() }
    }

    private func runTasks() {
        inbox.withLock { inbox in
            swap(&inbox.tasks, &running)
            inbox.wakePending = false
        }
        for work in running { work() }
        running.removeAll(keepingCapacity: running.capacity <= 4096)
    }
}

/// What a loop knows about one descriptor: a read side and a write side, each with its
/// handler and whether it wants events, and what the kernel was last told.
// @unchecked: confined to its loop's thread (every access is on it, or queued to it).
final class EpollRegistration: @unchecked Sendable {
    // @unchecked: confined to its loop's thread, like the registration.
    final class Side: @unchecked Sendable {
        var handler: (() -> Void)?
        /// Dispatch-style suspension: a source starts suspended (1) and runs at 0.
        var suspendCount = 1
        var inUse = false

        var isActive: Bool { inUse && suspendCount == 0 && handler != nil }
    }

    let fd: Int32
    let read = Side()
    let write = Side()
    var registeredEvents: UInt32 = 0

    init(fd: Int32) {
        self.fd = fd
    }

    var wantedEvents: UInt32 {
        (read.isActive ? EPOLLIN.rawValue : 0) | (write.isActive ? EPOLLOUT.rawValue : 0)
    }

    var isUnused: Bool { !read.inUse && !write.inUse }
}
#endif

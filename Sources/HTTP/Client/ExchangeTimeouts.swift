// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import NetCore
import Streams

/// An exchange its request's `timeout` can end (`HTTPClientRequest.timeout`).
protocol TimedExchange: AnyObject, Sendable {
    /// The timeout passed: the exchange is abandoned and fails, unless it ended already.
    func timedOut()
}

/// The request timeouts of the exchanges one client starts on one event loop, in the order they
/// fall due, behind one `LoopTimer` armed for the oldest.
///
/// A client's exchanges mostly share one timeout (the caller's attempt timeout), so they fall due
/// in the order they start: arming one appends it, an exchange that ends first clears its entry,
/// and the timer, when it fires, ends what is due and is armed again for the oldest left. No
/// allocation and no heap per exchange, where the loop's `EventLoopScheduler` cost ~2,000
/// instructions an exchange to arm and cancel a timer (finding the loop's scheduler, its work and
/// disposable, two heap updates; the figure: Benchmarks/README.md). A timeout that would fall due before the newest
/// one (a caller's shorter limit, as a call's deadline makes) goes to that scheduler instead.
// @unchecked: `state` is only touched between `lock.lock()` and `lock.unlock()`.
final class ExchangeTimeouts: @unchecked Sendable {
    /// An armed timeout, to disarm when its exchange ends first.
    ///
    /// Its queue unretained: the exchange holding it holds its client, which holds the queue
    /// (`HTTPClient.timeouts`). Retained, each move of an armed timeout in and out of its
    /// exchange's state cost a retain or a release, ~500 instructions an exchange in all.
    enum Armed: Sendable {
        case queued(Unmanaged<ExchangeTimeouts>, ticket: UInt64)
        case scheduled(Disposable)

        func disarm() {
            switch self {
            case .queued(let timeouts, let ticket): timeouts._withUnsafeGuaranteedRef { $0.clear(ticket) }
            case .scheduled(let timer): timer.dispose()
            }
        }
    }

    private struct Entry {
        let deadline: UInt64
        /// Nil once the exchange ended or timed out.
        var exchange: (any TimedExchange)?
    }

    private struct State {
        /// In deadline order; those before `head` are done.
        var entries: [Entry] = []
        var head = 0
        /// The ticket of `entries[0]`.
        var first: UInt64 = 0
        /// Whether the timer is armed (for the oldest entry's deadline, or earlier).
        var armed = false
        /// The last timeout armed and its nanoseconds: a client's exchanges mostly share one, and
        /// `Duration`'s conversion (128-bit arithmetic) cost ~190 instructions an exchange.
        var lastTimeout: Duration = .zero
        var lastNanoseconds: UInt64 = 0

        /// Drops the done entries at the front; the array is compacted once they are half of it.
        mutating func dropDone() {
            while head < entries.count, entries[head].exchange == nil { head += 1 }
            if head == entries.count {
                first &+= UInt64(entries.count)
                entries.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= entries.count {
                first &+= UInt64(head)
                entries.removeFirst(head)
                head = 0
            }
        }
    }

    /// A timeout falling due up to this much before the newest one still joins the queue (it then
    /// fires up to this late, the leeway `EventLoopScheduler` allows too): exchanges armed from
    /// several threads with one timeout (callers on no loop share a queue) are not quite in order.
    static let slack: UInt64 = 1_000_000

    private let lock = SpinLock()
    @exclusivity(unchecked) private var state = State()
    private let timer: LoopTimer
    /// For a timeout that falls due before the newest.
    private let outOfOrder: any Scheduler

    /// Made for an `Owner`, which cancels the timer when it goes (`cancel`).
    private init(loop: EventLoop, outOfOrder: any Scheduler) {
        self.outOfOrder = outOfOrder
        timer = loop.makeTimer()
        // Strong, a cycle that `cancel` ends (the timer lets its handler go once cancelled). A weak
        // reference gave this object a side table, and each retain and release of it (its loop's
        // lookup, once an exchange) then took the runtime's slow path, ~75–95 instructions where ~22.
        timer.setEventHandler { [self] in fire() }
        timer.activate()
    }

    /// Stops the timer, which then lets this object go: nothing fires after it. Its owner's deinit.
    private func cancel() {
        timer.cancel()
    }

    /// The client's hold on one queue: the client keeps this (one per loop, and one for callers on
    /// no loop), and its going cancels the queue's timer, which held the queue. The queue then goes
    /// once its timer lets the handler go (on its loop); an exchange still armed holds the client,
    /// so none is left in it.
    final class Owner: Sendable {
        let timeouts: ExchangeTimeouts

        init(loop: EventLoop, outOfOrder: any Scheduler) {
            timeouts = ExchangeTimeouts(loop: loop, outOfOrder: outOfOrder)
        }

        deinit {
            timeouts.cancel()
        }
    }

    /// Exchanges armed and not yet ended (tests).
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return state.entries[state.head...].count { $0.exchange != nil }
    }

    /// Arms `exchange`'s timeout to pass `timeout` from now.
    func arm(_ exchange: any TimedExchange, after timeout: Duration) -> Armed {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.lock()
        if timeout != state.lastTimeout {
            state.lastTimeout = timeout
            state.lastNanoseconds = timeout.nanoseconds
        }
        let deadline = now &+ state.lastNanoseconds
        if let newest = state.entries.last, newest.deadline > deadline &+ Self.slack {
            lock.unlock()
            return .scheduled(outOfOrder.schedule(after: timeout) { exchange.timedOut() })
        }
        let ticket = state.first &+ UInt64(state.entries.count)
        state.entries.append(Entry(deadline: deadline, exchange: exchange))
        let arm = !state.armed
        state.armed = true
        lock.unlock()
        if arm { timer.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline)) }
        return .queued(Unmanaged.passUnretained(self), ticket: ticket)
    }

    /// The exchange of `ticket` ended first.
    private func clear(_ ticket: UInt64) {
        lock.lock()
        let index = Int(truncatingIfNeeded: ticket &- state.first)
        if index >= state.head, index < state.entries.count {
            // Not its exchange's last reference: the exchange clears its own entry.
            state.entries[index].exchange = nil
            state.dropDone()
        }
        lock.unlock()
    }

    /// On the loop: ends the exchanges whose timeout passed and arms the timer for the next.
    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        var due: [any TimedExchange] = []
        lock.lock()
        while state.head < state.entries.count, state.entries[state.head].deadline <= now {
            if let exchange = state.entries[state.head].exchange { due.append(exchange) }
            state.entries[state.head].exchange = nil
            state.head += 1
        }
        state.dropDone()
        let next = state.head < state.entries.count ? state.entries[state.head].deadline : nil
        state.armed = next != nil
        lock.unlock()
        if let next { timer.schedule(deadline: DispatchTime(uptimeNanoseconds: next)) }
        for exchange in due { exchange.timedOut() }
    }
}

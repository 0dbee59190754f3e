// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch

/// A timer whose handler runs on its event loop, with the part of `DispatchSourceTimer`'s
/// interface the server and client use: created inactive, `schedule`, `activate`/`resume`,
/// `cancel`. Safe to call from any thread: off the loop, each call is queued to the loop in
/// order. Made by `EventLoop.makeTimer()`.
// @unchecked: the Dispatch source is thread-safe; the epoll state is only touched on the loop thread.
public final class LoopTimer: @unchecked Sendable {
    private enum Backend {
        case dispatch(DispatchSourceTimer)
        #if os(Linux)
        case epoll(EpollLoop, EpollState)
        #endif
    }

    private let backend: Backend

    init(dispatchQueue queue: DispatchQueue) {
        backend = .dispatch(DispatchSource.makeTimerSource(queue: queue))
    }

    #if os(Linux)
    init(epoll loop: EpollLoop) {
        backend = .epoll(loop, EpollState())
    }

    /// The loop-confined state of a timer on an `EpollLoop`.
    // @unchecked: confined to its loop's thread (every access is on it, or queued to it).
    final class EpollState: HeapPositioned, @unchecked Sendable {
        var handler: (() -> Void)?
        var activated = false
        var cancelled = false
        var scheduled = false
        var deadline: UInt64 = 0
        /// Nanoseconds between runs; nil for a one-shot timer.
        var interval: UInt64?
        /// Position in its loop's `TimerHeap`; -1 while not filed. Only the loop's thread touches
        /// it (unchecked: the heap's moves write it through `HeapPositioned`).
        @exclusivity(unchecked) var heapIndex = -1
    }
    #endif

    public func setEventHandler(_ handler: @escaping @Sendable () -> Void) {
        switch backend {
        case .dispatch(let source): source.setEventHandler(handler: handler)
        #if os(Linux)
        case .epoll(let loop, let state): loop.perform { state.handler = handler }
        #endif
        }
    }

    /// Fires at `deadline`, then every `repeating` interval if one is given; replaces any earlier schedule.
    public func schedule(deadline: DispatchTime, repeating: DispatchTimeInterval = .never, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        switch backend {
        case .dispatch(let source): source.schedule(deadline: deadline, repeating: repeating, leeway: leeway)
        #if os(Linux)
        case .epoll(let loop, let state):
            let interval = Self.nanoseconds(repeating)
            loop.perform {
                guard !state.cancelled else { return }
                state.scheduled = true
                state.interval = interval
                state.deadline = deadline.uptimeNanoseconds
                if state.activated { loop.arm(state, deadline: state.deadline) }
            }
        #endif
        }
    }

    public func activate() {
        switch backend {
        case .dispatch(let source): source.activate()
        #if os(Linux)
        case .epoll(let loop, let state):
            loop.perform {
                guard !state.activated, !state.cancelled else { return }
                state.activated = true
                if state.scheduled { loop.arm(state, deadline: state.deadline) }
            }
        #endif
        }
    }

    /// The first `resume()` of a new timer activates it, as with a Dispatch source.
    public func resume() {
        switch backend {
        case .dispatch(let source): source.resume()
        #if os(Linux)
        case .epoll: activate()
        #endif
        }
    }

    public func cancel() {
        switch backend {
        case .dispatch(let source): source.cancel()
        #if os(Linux)
        case .epoll(let loop, let state):
            loop.perform {
                state.cancelled = true
                state.handler = nil
                loop.disarm(state)
            }
        #endif
        }
    }

    #if os(Linux)
    private static func nanoseconds(_ interval: DispatchTimeInterval) -> UInt64? {
        switch interval {
        case .seconds(let n): UInt64(max(0, n)) * 1_000_000_000
        case .milliseconds(let n): UInt64(max(0, n)) * 1_000_000
        case .microseconds(let n): UInt64(max(0, n)) * 1_000
        case .nanoseconds(let n): UInt64(max(0, n))
        case .never: nil
        @unknown default: nil
        }
    }
    #endif
}

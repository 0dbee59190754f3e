// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Dispatch
import NetCore

/// The connections pinned to one event loop, and the periodic sweep that
/// enforces their timeouts (one timer per loop, not one per connection).
// @unchecked: confined to its EventLoop's serial queue, which serialises every access the way a lock would.
final class ConnectionSet: @unchecked Sendable {
    let loop: EventLoop
    /// Timed work for this loop's connections, run on the loop.
    let scheduler: EventLoopScheduler
    /// The `Date` header's bytes for this loop's responses.
    let date = HTTPDate.LoopCache()
    private var connections: [ObjectIdentifier: ServerConnection] = [:]
    private var sweepTimer: LoopTimer?

    init(loop: EventLoop) {
        self.loop = loop
        scheduler = EventLoopScheduler(loop: loop)
    }

    var count: Int { connections.count }

    func adopt(_ connection: ServerConnection, onClosed: @escaping () -> Void) {
        let id = ObjectIdentifier(connection)
        connections[id] = connection
        connection.onClosed = { [unowned self] in
            connections[id] = nil
            onClosed()
        }
        connection.start()
    }

    func startSweeping(every interval: Duration) {
        let timer = loop.makeTimer()
        let nanos = Int(interval.nanoseconds)
        timer.schedule(deadline: .now() + .nanoseconds(nanos), repeating: .nanoseconds(nanos), leeway: .nanoseconds(nanos / 4))
        timer.setEventHandler { [weak self] in self?.sweep() }
        sweepTimer = timer
        timer.resume()
    }

    func stopSweeping() {
        sweepTimer?.cancel()
        sweepTimer = nil
    }

    func beginShutdown() {
        for connection in Array(connections.values) { connection.beginShutdown() }
    }

    /// The shutdown deadline: every connection left is answered or ended as it can be, then closed.
    func closeAll() -> ShutdownDeadline {
        var report = ShutdownDeadline()
        for connection in Array(connections.values) { report.count(connection.deadlineReached()) }
        return report
    }

    private func sweep() {
        let now = DispatchTime.now().uptimeNanoseconds
        for connection in Array(connections.values) { connection.checkTimeouts(now: now) }
    }
}

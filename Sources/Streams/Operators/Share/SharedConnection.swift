// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// The connection `share()` and `replay(_:)` hold to their source, counted by watchers.
final class SharedConnection<Element: Sendable>: Sendable {
    private struct State {
        var subject: ReplayStreamer<Element>?
        var source: Disposable?
        var generation: UInt64 = 0
        var watchers = 0
    }

    private let state = Locked(State())
    private let upstream: any StreamType<Element>
    private let bufferSize: Int

    init(source: any StreamType<Element>, bufferSize: Int) {
        upstream = source
        self.bufferSize = bufferSize
    }

    func watch(using watcher: Watcher<Element>) -> Disposable {
        let (subject, generation, connects) = state.withLock { state in
            var connects = false
            if state.subject == nil {
                state.subject = ReplayStreamer(bufferSize: bufferSize)
                state.generation += 1
                connects = true
            }
            state.watchers += 1
            return (state.subject!, state.generation, connects)
        }
        let subscription = subject.watch(using: watcher)
        if connects {
            let source = upstream.watch(using: Watcher.relay { [weak self] event in
                if event.isTerminal { self?.disconnect(generation, disposing: false) }
                subject.event(event)
            })
            let stillConnected = state.withLock { state -> Bool in
                guard state.generation == generation, state.subject != nil else { return false }
                state.source = source
                return true
            }
            if !stillConnected { source.dispose() }
        }
        return Disposable { [weak self] in
            subscription.dispose()
            self?.release(generation)
        }
    }

    private func release(_ generation: UInt64) {
        let last = state.withLock { state -> Bool in
            guard state.generation == generation, state.subject != nil else { return false }
            state.watchers -= 1
            return state.watchers == 0
        }
        if last { disconnect(generation, disposing: true) }
    }

    /// Forgets the connection so the next watcher starts a new one.
    private func disconnect(_ generation: UInt64, disposing: Bool) {
        let source = state.withLock { state -> Disposable? in
            guard state.generation == generation else { return nil }
            defer {
                state.subject = nil
                state.source = nil
                state.watchers = 0
            }
            return state.source
        }
        if disposing { source?.dispose() }
    }
}

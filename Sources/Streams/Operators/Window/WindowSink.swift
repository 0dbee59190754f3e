// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The state of one `window` subscription and the one ordered queue through which it
/// opens windows, feeds them and closes them.
///
/// Opening a window (a value of the outer stream) and feeding it go through the same
/// serialized outbox, so a window's first value never overtakes its delivery to whoever
/// watches the windows, even when timer and source race on two threads.
final class WindowSink<Element: Sendable>: Sendable {
    /// One thing to do, in order: deliver a new window, feed or close the open one.
    enum Action: Sendable {
        case open(Streamer<Element>)
        case feed(Streamer<Element>, Element)
        case close(Streamer<Element>, Event<Element>)
    }

    struct State {
        var window = Streamer<Element>()
        var received = 0
        /// Identifies the open window, so a timer set for an earlier one does nothing.
        var generation: UInt64 = 0
    }

    private let count: Int
    private let sink: SerializedSink<State, Action>

    init(count: Int, downstream: Watcher<DataStream<Element>>) {
        self.count = count
        sink = SerializedSink(State(), downstream: Watcher.relay { event in
            switch event {
            case .data(.open(let window)): downstream.data(window.asDataStream())
            case .data(.feed(let window, let value)): window.data(value)
            case .data(.close(let window, let terminal)): window.event(terminal)
            case .error(let error): downstream.error(error)
            case .end: downstream.end()
            }
        })
    }

    /// Delivers the first window; returns its generation, for its timer.
    func open() -> UInt64? {
        sink.updateUnlessFinished { state, outbox in
            outbox.data(.open(state.window))
            state.generation = 1
            return state.generation
        }
    }

    /// Handles a source event; returns the generation of a window it opened, for its timer.
    func receive(_ event: Event<Element>) -> UInt64? {
        let opened = sink.updateUnlessFinished { state, outbox -> UInt64? in
            switch event {
            case .data(let value):
                outbox.data(.feed(state.window, value))
                state.received += 1
                guard state.received >= count else { return nil }
                return Self.replace(&state, &outbox)
            case .error(let error):
                outbox.data(.close(state.window, .error(error)))
                outbox.error(error)
            case .end:
                outbox.data(.close(state.window, .end))
                outbox.end()
            }
            return nil
        }
        return opened ?? nil
    }

    /// The time span of window `generation` is over: closes it unless it closed already;
    /// returns the generation of the window opened instead.
    func closeByTime(_ generation: UInt64) -> UInt64? {
        let opened = sink.updateUnlessFinished { state, outbox -> UInt64? in
            guard state.generation == generation else { return nil }
            return Self.replace(&state, &outbox)
        }
        return opened ?? nil
    }

    /// Stops all further output (the subscription was disposed).
    func shutDown() { sink.shutDown() }

    private static func replace(_ state: inout State, _ outbox: inout Outbox<Action>) -> UInt64 {
        outbox.data(.close(state.window, .end))
        state.window = Streamer()
        state.received = 0
        state.generation += 1
        outbox.data(.open(state.window))
        return state.generation
    }
}

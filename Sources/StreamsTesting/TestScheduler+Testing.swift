// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Streams

extension TestScheduler {
    /// Runs `work` at the absolute virtual time `milliseconds` (at once on the next
    /// `advance` if that time has passed).
    public func at(_ milliseconds: Int, _ work: @escaping @Sendable () -> Void) {
        schedule(after: .milliseconds(milliseconds) - now, work)
    }

    /// Watches `stream` now with a new `RecordingWatcher`; the subscription is returned alongside.
    public func record<S: StreamType>(_ stream: S) -> (recorder: RecordingWatcher<S.Element>, subscription: Disposable) {
        let recorder = RecordingWatcher<S.Element>(self)
        let subscription = stream.watch(using: recorder.watcher)
        return (recorder, subscription)
    }

    /// A hot stream emitting `events` at their absolute virtual times (RxTest: `createHotObservable`).
    public func hotStream<Element: Sendable>(_ events: [Recorded<Element>]) -> HotStream<Element> {
        HotStream(events, scheduler: self)
    }

    /// A cold stream giving each watcher `events` relative to its subscription (RxTest: `createColdObservable`).
    public func coldStream<Element: Sendable>(_ events: [Recorded<Element>]) -> ColdStream<Element> {
        ColdStream(events, scheduler: self)
    }

    /// A hot stream from a marble diagram (see `Marbles`), times counted from zero.
    public func hotStream<Element: Sendable>(
        _ diagram: String, values: [Character: Element], error: Error = MarbleError(),
        frame: Duration = Marbles.defaultFrame
    ) -> HotStream<Element> {
        hotStream(Marbles.events(diagram, values: values, error: error, frame: frame))
    }

    /// A cold stream from a marble diagram (see `Marbles`), times counted from each subscription.
    public func coldStream<Element: Sendable>(
        _ diagram: String, values: [Character: Element], error: Error = MarbleError(),
        frame: Duration = Marbles.defaultFrame
    ) -> ColdStream<Element> {
        coldStream(Marbles.events(diagram, values: values, error: error, frame: frame))
    }

    /// A hot stream of one-character strings from a marble diagram: `"-a-b-|"`.
    public func hotStream(
        _ diagram: String, error: Error = MarbleError(), frame: Duration = Marbles.defaultFrame
    ) -> HotStream<String> {
        hotStream(Marbles.events(diagram, error: error, frame: frame))
    }

    /// A cold stream of one-character strings from a marble diagram: `"--a|"`, `"--#"`.
    public func coldStream(
        _ diagram: String, error: Error = MarbleError(), frame: Duration = Marbles.defaultFrame
    ) -> ColdStream<String> {
        coldStream(Marbles.events(diagram, error: error, frame: frame))
    }

    /// Creates the stream at `created`, watches it at `subscribed` and disposes that
    /// watch at `disposed` (virtual milliseconds), advancing the clock to `disposed`;
    /// returns what the watch recorded (RxTest: `start(created:subscribed:disposed:)`).
    /// A `subscribed` before `created` creates the stream at `subscribed`, just before watching it.
    ///
    ///     let recorder = scheduler.start { source.filter { $0 > 1 } }
    ///     XCTAssertEqual(recorder.events, [.data(300, 2), .end(400)])
    public func start<S: StreamType>(
        created: Int = 100, subscribed: Int = 200, disposed: Int = 1_000,
        _ create: @escaping @Sendable () -> S
    ) -> RecordingWatcher<S.Element> {
        let recorder = RecordingWatcher<S.Element>(self)
        let stream = Locked<S?>(nil)
        let subscription = SerialDisposable()
        at(min(created, subscribed)) { stream.withLock { $0 = create() } }
        at(subscribed) {
            guard let source = stream.withLock({ $0 }) else { return }
            subscription.replace(with: source.watch(using: recorder.watcher))
        }
        at(disposed) { subscription.dispose() }
        advance(to: .milliseconds(disposed))
        return recorder
    }
}

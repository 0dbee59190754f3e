// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// A stream that watches its source only when told to: `connect()` starts one
/// subscription to the source, multicast through a subject to every watcher
/// (ReactiveX: `ConnectableObservable`; Combine: `Publishers.MakeConnectable`;
/// ReactiveSwift: none, `replayLazily` is the nearest).
///
///     let published = source.publish()
///     published.watch(a); published.watch(b)   // nothing flows yet
///     let connection = published.connect()     // source: -1-2-|, a and b: -1-2-|
///
/// Watchers that come before `connect()` miss nothing. Disposing the connection
/// disposes the source subscription; the next `connect()` starts a new one
/// through a new subject. `refCount()` connects on the first watcher and
/// disconnects after the last, which is what `share()` does in one step.
public final class ConnectableStream<Element: Sendable>: StreamType {
    private struct State {
        var subject: (any SubjectType<Element>)?
        var connection: Disposable?
    }

    private let source: any StreamType<Element>
    private let makeSubject: @Sendable () -> any SubjectType<Element>
    private let state = Locked(State())

    init(source: any StreamType<Element>, makeSubject: @escaping @Sendable () -> any SubjectType<Element>) {
        self.source = source
        self.makeSubject = makeSubject
    }

    /// The subject of the current (or next) connection.
    private func currentSubject() -> any SubjectType<Element> {
        state.withLock { state in
            if let subject = state.subject { return subject }
            let subject = makeSubject()
            state.subject = subject
            return subject
        }
    }

    @discardableResult
    public func watch(using watcher: Watcher<Element>) -> Disposable {
        currentSubject().watch(using: watcher)
    }

    /// Starts the shared subscription to the source, unless one is running; returns it.
    /// Disposing it stops the source and lets a later `connect()` start afresh.
    @discardableResult
    public func connect() -> Disposable {
        let subject = currentSubject()
        let (existing, connection) = state.withLock { state -> (Disposable?, Disposable) in
            if let connection = state.connection { return (connection, connection) }
            let connection = Disposable()
            state.connection = connection
            return (nil, connection)
        }
        if let existing { return existing }
        let subscription = source.watch(using: subject.asWatcher())
        connection.appendAction { [weak self] in
            subscription.dispose()
            self?.state.withLock { state in
                guard state.connection === connection else { return }
                state.connection = nil
                state.subject = nil
            }
        }
        return connection
    }

    /// Connects when the first watcher arrives and disposes the connection when the
    /// last one leaves (ReactiveX: `refCount()`; Combine: `autoconnect()`, which never disconnects).
    public func refCount() -> DataStream<Element> {
        let count = Locked<(watchers: Int, connection: Disposable?)>((0, nil))
        return DataStream { [self] watcher in
            let subscription = self.watch(using: watcher)
            let connectNow = count.withLock { count -> Bool in
                count.watchers += 1
                return count.watchers == 1
            }
            if connectNow {
                let connection = connect()
                let stale = count.withLock { count -> Bool in
                    guard count.watchers > 0 else { return true }
                    count.connection = connection
                    return false
                }
                if stale { connection.dispose() }
            }
            return Disposable {
                subscription.dispose()
                let last = count.withLock { count -> Disposable? in
                    count.watchers -= 1
                    guard count.watchers == 0 else { return nil }
                    defer { count.connection = nil }
                    return count.connection
                }
                last?.dispose()
            }
        }
    }
}

extension StreamType {
    /// This stream behind a `Streamer`, watched only on `connect()` (ReactiveX: `publish()`).
    ///
    ///     source:            -1-2-3-|
    ///     publish(), A and B watch, then connect():  A and B: -1-2-3-|
    public func publish() -> ConnectableStream<Element> {
        multicast { Streamer<Element>() }
    }

    /// This stream behind the subject `makeSubject` builds for each connection
    /// (ReactiveX: `multicast`), e.g. `multicast { ReplayStreamer(bufferSize: 1) }`.
    public func multicast(_ makeSubject: @escaping @Sendable () -> any SubjectType<Element>) -> ConnectableStream<Element> {
        ConnectableStream(source: self, makeSubject: makeSubject)
    }
}

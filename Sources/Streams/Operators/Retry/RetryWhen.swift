// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Watches the stream again each time the notifier stream, built from the stream
    /// of errors, emits a value (RxSwift: `retry(when:)`/`retryWhen`; Combine: none;
    /// ReactiveCocoa: none). The notifier's end ends the result, its error fails it.
    ///
    ///     source (each try):        -1-#
    ///     errors:                      -e---e---e
    ///     notifier = errors.delay(2):     ---x---x   (then take(2) ends it)
    ///     retry(when:):             -1-----1-----1-|
    ///
    ///     stream.retry { errors in
    ///         errors.redirect { error in isTransient(error) ? DataStream.timer(.seconds(1), scheduler: s) : .just(error: error) }
    ///     }
    ///
    /// The notifier is watched once, before the first attempt; a source error with no
    /// reaction from the notifier leaves the result waiting for it. Synchronous
    /// failures re-watched synchronously loop, not recurse.
    public func retry<Notifier: StreamType>(
        when notifier: @escaping @Sendable (DataStream<Error>) throws -> Notifier
    ) -> DataStream<Element> {
        DataStream { downstream in
            let errors = Streamer<Error>()
            let attempts = Disposable(carrying: ContextPropagation.capture())
            let resubscriber = Resubscriber()

            @Sendable func watchAttempt() {
                self.watchAttempt(under: attempts, feeding: downstream) { error in errors.data(error) }
            }

            let trigger: Notifier
            do {
                trigger = try notifier(errors.asDataStream())
            } catch {
                downstream.error(error)
                return Disposable.nothing
            }
            let notifications = trigger.watch(using: Watcher.relay { event in
                switch event {
                case .data: resubscriber.trampoline.request(watchAttempt)
                case .error(let error): downstream.error(error)
                case .end: downstream.end()
                }
            })
            resubscriber.trampoline.request(watchAttempt)
            return Disposable {
                notifications.dispose()
                attempts.dispose()
            }
        }
    }
}

/// The trampoline of one `retry(when:)` subscription, shared by its closures.
private final class Resubscriber: Sendable {
    let trampoline = Trampoline()
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Starts one attempt of a re-watching operator (`retry`, `retry(when:)`): values and
    /// the end go to `downstream`, an error to `failed`, which decides whether to try again.
    /// `attempts` holds the attempt, even while it is still being set up, so disposing the
    /// operator reaches it; nothing starts once `downstream` has stopped.
    func watchAttempt(
        under attempts: Disposable, feeding downstream: Watcher<Element>,
        failed: @escaping @Sendable (Error) -> Void
    ) {
        guard !downstream.isStopped else { return }
        PendingSubscriptions.watch(under: attempts) { watch(using: Watcher.relay { event in
            switch event {
            case .data(let value): downstream.data(value)
            case .end: downstream.end()
            case .error(let error): failed(error)
            }
        }) }
    }
}

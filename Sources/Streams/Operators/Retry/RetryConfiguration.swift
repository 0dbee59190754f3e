// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What a `retry` operator was built with, shared by its subscriptions (see `retry(_:backoff:scheduler:)`).
final class RetryConfiguration<Source: StreamType>: Sendable {
    let source: Source
    let maxRetries: Int
    let backoff: RetryBackoff
    let scheduler: (any Scheduler)?

    init(source: Source, maxRetries: Int, backoff: RetryBackoff, scheduler: (any Scheduler)?) {
        self.source = source
        self.maxRetries = maxRetries
        self.backoff = backoff
        self.scheduler = scheduler
    }
}

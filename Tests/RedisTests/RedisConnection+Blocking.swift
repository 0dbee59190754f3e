// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Dispatch
import Redis

extension RedisConnection {
    struct NoReply: Error {}

    /// Sends `arguments` and waits (10 s at most) for the reply: tests read like a script.
    func reply(_ arguments: [String], timeout: Duration? = nil) throws -> RESPValue {
        let result = Locked<Result<RESPValue, RedisError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        send(arguments, timeout: timeout) { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success, let outcome = result.withLock({ $0 }) else { throw NoReply() }
        return try outcome.get()
    }
}

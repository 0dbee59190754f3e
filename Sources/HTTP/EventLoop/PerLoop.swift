// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import NetCore
import Synchronization

/// One object per event loop, made on first use there: the timers of a `CurrentLoopScheduler`,
/// the request timeouts of an `HTTPClient`. This owns them; each loop finds its own through
/// `EventLoop.loopLocal` under a key of this instance, without a lock: through one lock shared by
/// every loop, each timeout armed had the loops' threads hand that lock back and forth. The loops
/// keep the objects unretained (`EventLoop.setLoopLocal`): sound because this owns them for as long
/// as it lives and is the only reader of its key, which no other instance ever gets.
final class PerLoop<Value: AnyObject & Sendable>: Sendable {
    private let owned = Locked<[ObjectIdentifier: Value]>([:])
    private let key = perLoopKeys.wrappingAdd(1, ordering: .relaxed).newValue
    private let make: @Sendable (EventLoop) -> Value

    init(_ make: @escaping @Sendable (EventLoop) -> Value) {
        self.make = make
    }

    /// `loop`'s object. Call on `loop`.
    func value(on loop: EventLoop) -> Value {
        if let found = loop.loopLocal(key) { return unsafeDowncast(found, to: Value.self) }
        let value = owned.withLock { owned in
            if let value = owned[ObjectIdentifier(loop)] { return value }
            let value = make(loop)
            owned[ObjectIdentifier(loop)] = value
            return value
        }
        loop.setLoopLocal(value, for: key)
        return value
    }

    /// Loops with an object of their own so far (tests and diagnostics).
    var count: Int { owned.withLock { $0.count } }
}

/// The keys of `PerLoop` instances (a generic class has no static stored property).
private let perLoopKeys = Atomic<Int>(0)

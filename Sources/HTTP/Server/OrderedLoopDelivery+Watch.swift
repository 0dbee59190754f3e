// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import Streams

extension OrderedLoopDelivery {
    /// Watches `stream` and handles each event on this delivery's loop, in order: inline when it may
    /// run there now, else queued (`runsInline`). How `AnswerDriver` watches a handler's answer and
    /// a streamed body on both protocols (`HTTP1Connection`, `HTTP2Connection`).
    func watch<Value>(_ stream: DataStream<Value>, _ handle: @escaping @Sendable (Event<Value>) -> Void) -> Disposable {
        stream.watch { [self] event in
            if runsInline {
                handle(event)
            } else {
                run { handle(event) }
            }
        }
    }
}

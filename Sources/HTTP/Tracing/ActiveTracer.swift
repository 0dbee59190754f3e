// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import Tracing

/// The tracer a server or client reports to, resolved once when it is made rather than per
/// request: `InstrumentationSystem.tracer` takes a lock and two existential casts, and the
/// no-op tracer it returns when none was bootstrapped should cost a request nothing at all.
public enum ActiveTracer {
    /// `explicit` when given, else the bootstrapped tracer; nil for the no-op tracer. A tracer
    /// found turns on `ContextPropagation`, so its contexts travel with Streams' subscriptions.
    public static func resolve(_ explicit: (any Tracer)? = nil) -> (any Tracer)? {
        let tracer = explicit ?? InstrumentationSystem.tracer
        if tracer is NoOpTracer { return nil }
        ContextPropagation.enable()
        return tracer
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Receives every sampled span as it ends (the OTel SDK's span processor, end side only).
public protocol SpanProcessor: Sendable {
    /// Called on the thread that ended the span: must not block. The record is handed over
    /// (`consuming`): a processor that keeps it moves it, not a copy with its strings and arrays
    /// retained while the span's own is released.
    func onEnd(_ span: consuming SpanRecord)
    /// Exports everything ended so far; `completion` runs once that is done or given up.
    func forceFlush(completion: @escaping @Sendable () -> Void)
    /// Flushes, then stops: spans ended afterwards are dropped.
    func shutdown(completion: @escaping @Sendable () -> Void)
}

/// Sends batches of spans somewhere (the OTel SDK's span exporter). One `export` at a time.
public protocol SpanExporter: Sendable {
    /// `completion(true)` once the batch is delivered, `false` once it is given up (after retries).
    func export(_ batch: [SpanRecord], completion: @escaping @Sendable (Bool) -> Void)
}

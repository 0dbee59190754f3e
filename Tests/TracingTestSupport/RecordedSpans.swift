// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Telemetry

/// A span processor that keeps every record it is given, in the order the spans ended: what an
/// `OTelTracer` under test recorded, read without an exporter.
public final class RecordedSpans: SpanProcessor {
    private let ended = Locked<[SpanRecord]>([])

    public init() {}

    /// The records so far, oldest first.
    public var spans: [SpanRecord] { ended.withLock { $0 } }

    public func onEnd(_ span: consuming SpanRecord) {
        let span = span
        ended.withLock { $0.append(span) }
    }

    public func forceFlush(completion: @escaping @Sendable () -> Void) { completion() }
    public func shutdown(completion: @escaping @Sendable () -> Void) { completion() }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Where a tracer's spans go as they end, asked once per tracer (a conformance check per span
/// cost about 900 instructions): written into the batch processor's buffers (`stream`, OTLP
/// protobuf) or handed to `processor` as `SpanRecord`s. One reference per span, where the
/// processor's existential (40 bytes) was copied into each.
final class SpanSink: Sendable {
    let processor: any SpanProcessor
    /// `processor`, when it writes spans as they end (`BatchSpanProcessor.encodesOnEnd`).
    let stream: BatchSpanProcessor?
    /// `stream` lent unretained (`stream` keeps it): a span's end reached it through `stream`
    /// with a retain and a release, twice (about 80 instructions a span).
    let unretainedStream: Unmanaged<BatchSpanProcessor>?

    init(_ processor: any SpanProcessor) {
        self.processor = processor
        stream = (processor as? BatchSpanProcessor).flatMap { $0.encodesOnEnd ? $0 : nil }
        unretainedStream = stream.map { Unmanaged.passUnretained($0) }
    }
}

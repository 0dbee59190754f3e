// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The batch processor's queue when it exports OTLP protobuf: each span is written as a
/// `ScopeSpans.spans` field into the buffer of the batch it will leave in, as it ends, so no
/// `SpanRecord` is made, queued, copied or destroyed for it (about 1 k instructions a span less,
/// the encoding counted: 3,708 k -> 3,670 k a `/users` request at 100 %; Benchmarks/README.md).
/// Counted in spans, as `OTEL_BSP_MAX_QUEUE_SIZE` and `OTEL_BSP_MAX_EXPORT_BATCH_SIZE` are:
/// at most `maxQueueSize` spans wait, in batches of at most `batchSize`.
/// A value inside the processor's lock: every use is under it.
struct EncodedSpanQueue {
    /// Spans written one after another, ready to be framed (`OTLPProtobufEncoding.Framing`).
    struct Batch {
        var spans: ProtobufWriter
        var count = 0
    }

    let batchSize: Int
    let maxQueueSize: Int
    /// The full batches, the first leaves first.
    private var full: [Batch] = []
    /// The batch taking the spans ending now, until it holds `batchSize`; it leaves after `full`.
    /// Apart from `full`: written as the array's last element, each span's write checked the
    /// array's uniqueness and bounds, twice (with `SizedSpan.fieldLength` counted once,
    /// `UpstreamSpan.end(status:)` 45,327 -> 44,532 instructions a `/users` request at 100 %).
    private var current: Batch?
    /// A sent batch's buffer, emptied, for the next batch, when the request did not keep it (a
    /// compressed export): its room is made once.
    private var spare: ProtobufWriter?
    /// Spans in all the batches.
    private(set) var count = 0

    init(batchSize: Int, maxQueueSize: Int) {
        self.batchSize = max(batchSize, 1)
        self.maxQueueSize = maxQueueSize
    }

    var isEmpty: Bool { count == 0 }

    /// Spans in the batch that leaves next.
    var firstCount: Int { full.first?.count ?? current?.count ?? 0 }

    /// Writes one span (`writeField` writes its whole `ScopeSpans.spans` field, tag and length
    /// too) into the newest batch, or a new one when that is full; false, writing nothing, when
    /// `maxQueueSize` spans wait already.
    mutating func append(_ writeField: (inout ProtobufWriter) -> Void) -> Bool {
        guard count < maxQueueSize else { return false }
        if current == nil || current!.count == batchSize { startBatch() }
        writeField(&current!.spans)
        current!.count += 1
        count += 1
        return true
    }

    /// A new `current`, the full one (if any) queued behind the others.
    private mutating func startBatch() {
        var next: Batch? = Batch(spans: takeSpare())
        swap(&next, &current)
        if let next { full.append(next) }
    }

    /// The batches waiting, first to leave first.
    var waiting: [Batch] { full + (current.map { [$0] } ?? []) }

    /// The batch that leaves next, taken out of the queue.
    mutating func removeFirst() -> Batch? {
        let batch: Batch
        if !full.isEmpty {
            batch = full.removeFirst()
        } else if let taking = current {
            batch = taking
            current = nil
        } else {
            return nil
        }
        count -= batch.count
        return batch
    }

    /// Every batch dropped; returns how many spans they held.
    mutating func removeAll() -> Int {
        defer {
            full = []
            current = nil
            count = 0
        }
        return count
    }

    /// A batch's buffer, once its body is made apart from it, kept for the next batch.
    mutating func recycle(_ spans: consuming ProtobufWriter) {
        spans.removeAll()
        spare = spans
    }

    private mutating func takeSpare() -> ProtobufWriter {
        if let spare {
            self.spare = nil
            return spare
        }
        // Room for a CLIENT span with its nine attributes (about 400 bytes) each, as the record
        // encoder reserves (grown from less, a batch's buffer was copied once or twice), for at
        // most the default batch: a larger one grows its buffer once, which is then used again.
        return ProtobufWriter(reservingCapacity: min(batchSize, maxQueueSize, 512) * 448)
    }
}

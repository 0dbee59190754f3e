// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Tracing

/// The mutable state of one sampled span until it ends. Spans are shared across threads (a
/// request's span is ended on whichever loop finishes the answer), so every change goes through
/// one lock; after `end` the span ignores further changes, as the OTel API says.
final class RecordingSpan: Sendable {
    private struct State {
        var name: String
        var attributes = SpanAttributes()
        var events: [SpanRecord.Event] = []
        var links: [SpanRecord.Link] = []
        var status: SpanStatus?
        var ended = false
    }

    let context: SpanContext
    let parentSpanID: SpanID?
    let kind: SpanKind
    let startNanoseconds: UInt64
    private let state: Locked<State>
    /// Gets the finished span, once.
    private let finished: @Sendable (SpanRecord) -> Void

    init(name: String, context: SpanContext, parentSpanID: SpanID?, kind: SpanKind, startNanoseconds: UInt64, finished: @escaping @Sendable (SpanRecord) -> Void) {
        self.context = context
        self.parentSpanID = parentSpanID
        self.kind = kind
        self.startNanoseconds = startNanoseconds
        self.finished = finished
        state = Locked(State(name: name))
    }

    var name: String {
        get { state.withLock { $0.name } }
        set { state.withLock { if !$0.ended { $0.name = newValue } } }
    }

    var attributes: SpanAttributes {
        get { state.withLock { $0.attributes } }
        set { state.withLock { if !$0.ended { $0.attributes = newValue } } }
    }

    func addEvent(_ event: SpanRecord.Event) {
        state.withLock { if !$0.ended { $0.events.append(event) } }
    }

    func addLink(_ link: SpanRecord.Link) {
        state.withLock { if !$0.ended { $0.links.append(link) } }
    }

    /// An error status always wins over ok; ok wins over unset (the spec's precedence).
    func setStatus(_ status: SpanStatus) {
        state.withLock { state in
            guard !state.ended, state.status?.code != .ok else { return }
            state.status = status.code == .ok ? SpanStatus(code: .ok) : status
        }
    }

    func end(at nanoseconds: UInt64) {
        let record = state.withLock { state -> SpanRecord? in
            guard !state.ended else { return nil }
            state.ended = true
            return SpanRecord(
                context: context, parentSpanID: parentSpanID, name: state.name, kind: kind,
                startNanoseconds: startNanoseconds, endNanoseconds: max(nanoseconds, startNanoseconds),
                attributes: state.attributes, events: state.events, links: state.links, status: state.status)
        }
        if let record { finished(record) }
    }
}

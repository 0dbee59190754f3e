// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Streams
import Tracing

/// The mutable state of one sampled span until it ends. Spans are shared across threads (a
/// request's span is ended on whichever loop finishes the answer), so every change goes through
/// one lock; after `end` the span ignores further changes, as the OTel API says.
/// The lock is inline and the processor held as it is, so a span is one allocation: its changes
/// are a few field updates that never call out, the case `SpinLock` is for.
/// It is its own context's `SpanContextReference`: the span's `ServiceContext` holds it.
// @unchecked: `state` is only touched between `lock.lock()` and `lock.unlock()`.
final class RecordingSpan: SpanContextReference, @unchecked Sendable {
    private struct State {
        var name: String
        /// The attributes our own spans hand over whole (`addAttributes`); empty while `rare`
        /// holds attributes set through the span API (one of the two holds them all, so they
        /// never disagree).
        var list = SpanAttributeList()
        var status: SpanStatus?
        /// What this service's own spans seldom hold (a retried exchange's `retry` events); nil
        /// until one of it comes.
        var rare: Rare?

        /// The attributes set through the span API.
        var attributes: SpanAttributes { rare?.attributes ?? SpanAttributes() }
        var hasAttributes: Bool { !(rare?.attributes.isEmpty ?? true) }
        /// No attribute set through the span API, no event and no link: what `SizedSpan` writes.
        var isListed: Bool { rare.map { $0.attributes.isEmpty && $0.events.isEmpty && $0.links.isEmpty } ?? true }

        /// `body` on `rare`, made first when there is none.
        mutating func withRare<Result>(_ body: (inout Rare) -> Result) -> Result {
            if rare == nil { rare = Rare() }
            return body(&rare!)
        }
    }

    /// Attributes set through the span API (`Span.attributes`), events and links: inline in an
    /// optional that is nil for a span without any (a CLIENT span not retried), so a span's state is
    /// made, moved out and destroyed without an empty dictionary and two empty arrays
    /// beside its list (their releases and the checks of each).
    private struct Rare {
        var attributes = SpanAttributes()
        var events: [SpanRecord.Event] = []
        var links: [SpanRecord.Link] = []
    }

    var context: SpanContext { spanContext }
    let parentSpanID: SpanID?
    let kind: SpanKind
    let startNanoseconds: UInt64
    private let lock = SpinLock()
    /// nil once the span has ended: moved out whole (`endState`), so the span keeps no emptied
    /// state to make as it ends and destroy in its deinit (about 200 instructions a span: its
    /// CLIENT end 2,240 -> 2,145, its deinit 316 -> 211).
    /// Spelled `Optional<State>`, not `State?`: a `State?` variable starts as nil, and `init`'s
    /// assignment then destroyed that nil through the optional's generic value witness
    /// (`outlined destroy of Sendable?`, about 62 instructions a span).
    @exclusivity(unchecked) private var state: Optional<State>
    /// Gets the finished span, once.
    private let sink: SpanSink

    init(name: String, context: SpanContext, parentSpanID: SpanID?, kind: SpanKind, startNanoseconds: UInt64, sink: SpanSink) {
        self.parentSpanID = parentSpanID
        self.kind = kind
        self.startNanoseconds = startNanoseconds
        self.sink = sink
        state = State(name: name)
        super.init(context)
    }

    private func withLock<Result>(_ body: (inout State?) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    var name: String {
        get { withLock { $0?.name ?? "" } }
        set { withLock { $0?.name = newValue } }
    }

    var attributes: SpanAttributes {
        get {
            withLock { state in
                guard let state else { return SpanAttributes() }
                return state.list.isEmpty ? state.attributes : state.list.attributes
            }
        }
        set {
            withLock { state in
                guard state != nil else { return }
                state!.withRare { $0.attributes = newValue }
                state!.list = SpanAttributeList()
            }
        }
    }

    /// Adds `list` (its values win): kept as it is while the span API set none, else merged
    /// into those.
    func addAttributes(_ list: SpanAttributeList) {
        withLock { state in
            guard state != nil else { return }
            Self.add(list, to: &state!)
        }
    }

    private static func add(_ list: SpanAttributeList, to state: inout State) {
        if state.hasAttributes {
            for entry in list.entries { state.rare!.attributes.set(entry.key, value: entry.value) }
        } else if state.list.isEmpty {
            state.list = list
        } else {
            for entry in list.entries { state.list.set(entry.key, entry.value) }
        }
    }

    func addEvent(_ event: SpanRecord.Event) {
        withLock { state in
            guard state != nil else { return }
            state!.withRare { $0.events.append(event) }
        }
    }

    func addLink(_ link: SpanRecord.Link) {
        withLock { state in
            guard state != nil else { return }
            state!.withRare { $0.links.append(link) }
        }
    }

    /// An error status always wins over ok; ok wins over unset (the spec's precedence).
    func setStatus(_ status: SpanStatus) {
        withLock { state in
            guard state != nil, state!.status?.code != .ok else { return }
            state!.status = status.code == .ok ? SpanStatus(code: .ok) : status
        }
    }

    func end(at nanoseconds: UInt64) {
        guard var state = endState(adding: nil) else { return }
        finish(&state, at: nanoseconds)
    }

    /// The ended state, written into its export batch where the processor takes spans so
    /// (`BatchSpanProcessor.stream`: no record made, queued or destroyed), else handed over as a
    /// `SpanRecord` (the slow twin; the tests hold the two bodies equal).
    /// `shared`: attributes after the state's own, their keys distinct from those (written as
    /// the encoder wrote them once, `SharedSpanAttributes.memo`; the slow twin adds them to the
    /// state's list).
    /// `own`: one attribute after the state's list, written from where it lies (no list made for
    /// it); given only when the state holds no attribute, event or link (`end(adding:string:sharing:at:)`).
    private func finish(
        _ state: inout State, at nanoseconds: UInt64, sharing shared: SharedSpanAttributes? = nil,
        own: UnsafePointer<SizedSpan.OwnString>? = nil
    ) {
        var shared = shared
        // The condition first: `shared?.list` read first was a copy of the list made for nothing
        // in the usual case.
        if sink.stream == nil || state.hasAttributes, let list = shared?.list {
            Self.add(list, to: &state)
            shared = nil
        }
        guard let stream = sink.unretainedStream else { return sink.processor.onEnd(record(taking: &state, at: nanoseconds)) }
        assert(shared.map { shared in !shared.list.entries.contains { state.list[$0.key] != nil } } ?? true, "a shared key is the span's own too")
        let end = max(nanoseconds, startNanoseconds)
        // Read where they lie: the captured state's fields, passed on, were each copied (retained)
        // and released after (about 200 instructions a span).
        withUnsafePointer(to: &state) { state in
            // Counted first, written at once (`SizedSpan`), when it takes the span.
            if state.pointee.isListed, writeSized(state, end: end, to: stream, sharing: shared, own: own) { return }
            assert(own == nil, "a span with an attribute of its own beside the list is one SizedSpan writes")
            let encoded = shared?.memo(OTLPProtobufEncoding.EncodedAttributes.init)
            stream._withUnsafeGuaranteedRef { stream in
                stream.stream { batch in
                    OTLPProtobufEncoding.spanField(&batch) { message in
                        OTLPProtobufEncoding.writeSpan(
                            &message, context: spanContext, parentSpanID: parentSpanID, name: state.pointee.name, kind: kind,
                            start: startNanoseconds, end: end, attributes: state.pointee.attributes, list: state.pointee.list,
                            events: state.pointee.rare?.events ?? [], links: state.pointee.rare?.links ?? [], status: state.pointee.status,
                            shared: encoded)
                    }
                }
            }
        }
    }

    /// `finish`'s write of a span `SizedSpan` takes (false, writing nothing, for one it does not).
    /// The name and the list lent where they lie, read once here, outside the processor's lock:
    /// passed on as a string and a list, each was retained and released around the write under
    /// it. The processor, the span and the shared bytes reached unretained (the sink, this call's
    /// `self` and `shared`'s kept encoding hold them): captured by the closure handed through
    /// the processor's lock, each was retained and released, the processor and the shared bytes
    /// twice (with the rest of that specialization, `finish` 58,996 -> 43,319 instructions a
    /// `/users` request at 100 %, same run; the processor, the shared bytes and an empty list,
    /// about 200 instructions a CLIENT span more).
    @inline(__always)
    private func writeSized(
        _ state: UnsafePointer<State>, end: UInt64, to stream: Unmanaged<BatchSpanProcessor>, sharing shared: SharedSpanAttributes?,
        own: UnsafePointer<SizedSpan.OwnString>?
    ) -> Bool {
        ProtobufWriter.withUTF8(state.pointee.name) { name in
            // With `own`, the state holds no attribute (`end(adding:string:sharing:at:)` asked):
            // its list not read, whose empty array was retained and released around the write.
            Self.lending(own == nil ? state : nil) { entries -> Bool in
                Self.withSharedBytes(shared) { sharedBytes -> Bool in
                    guard
                        let sized = SizedSpan(
                            context: spanContext, parentSpanID: parentSpanID, name: name, start: startNanoseconds, end: end,
                            entries: entries, status: state.pointee.status, own: own, sharedLength: sharedBytes?.count ?? 0)
                    else { return false }
                    let span = Unmanaged.passUnretained(self)
                    stream._withUnsafeGuaranteedRef { stream in
                        stream.stream { batch in
                            batch.write(exactly: sized.fieldLength) { at in
                                span._withUnsafeGuaranteedRef { span in
                                    sized.write(
                                        at: at, context: span.spanContext, parentSpanID: span.parentSpanID, name: name, kind: span.kind,
                                        start: span.startNanoseconds, end: end, entries: entries, status: state.pointee.status, own: own,
                                        sharedBytes: sharedBytes)
                                }
                            }
                        }
                    }
                    return true
                }
            }
        }
    }

    /// The state's list's entries lent to `body`; none for nil (a state known to hold none).
    @inline(__always)
    private static func lending<Result>(_ state: UnsafePointer<State>?, _ body: (UnsafeBufferPointer<SpanAttributeList.Entry>) -> Result) -> Result {
        guard let state else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return lending(state.pointee.list, body)
    }

    /// `shared`'s encoded bytes lent to `body` (nil without it): those `memo` kept, unretained
    /// (`SharedSpanAttributes.kept`); made first for the first span of them.
    @inline(__always)
    private static func withSharedBytes<Result>(_ shared: SharedSpanAttributes?, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        guard let shared else { return body(nil) }
        if let kept = shared.kept(OTLPProtobufEncoding.EncodedAttributes.self) { return body(kept._withUnsafeGuaranteedRef { $0.lent }) }
        // None kept yet (`memo` keeps this one), or one of another type (this one is this span's alone).
        let made = shared.memo(OTLPProtobufEncoding.EncodedAttributes.init)
        return withExtendedLifetime(made) { body(made.lent) }
    }

    /// `list`'s entries lent to `body`; an empty list's (every CLIENT span's) without asking the
    /// array, which retained and released its empty storage (about 10 instructions a span:
    /// `UpstreamSpan.end(status:)` 63,533 -> 63,215 a `/users` request at 100 %, same run).
    @inline(__always)
    private static func lending<Result>(_ list: SpanAttributeList, _ body: (UnsafeBufferPointer<SpanAttributeList.Entry>) -> Result) -> Result {
        guard !list.isEmpty else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return list.entries.withUnsafeBufferPointer(body)
    }

    /// The state as the span ends, `list` added: moved out under the lock (the span keeps none,
    /// which marks it ended: it ignores further changes); nil when it had ended already.
    /// The record is made outside the lock, of the state moved out: made under it, it was
    /// copied out of the lock's closure and the copy released (about 370 instructions a span).
    private func endState(adding list: SpanAttributeList?) -> State? {
        withLock { state in
            guard state != nil else { return nil }
            if let list { Self.add(list, to: &state!) }
            var ended: State?
            swap(&ended, &state)
            return ended
        }
    }

    /// The record of the state, each part moved out of it (swapped for an empty one): read
    /// from a `consuming` state, each part was copied and the state destroyed after.
    private func record(taking state: inout State, at nanoseconds: UInt64) -> SpanRecord {
        var rare = Self.take(&state.rare, nil) ?? Rare()
        return SpanRecord(
            context: context, parentSpanID: parentSpanID, name: Self.take(&state.name, ""), kind: kind,
            startNanoseconds: startNanoseconds, endNanoseconds: max(nanoseconds, startNanoseconds),
            attributes: Self.take(&rare.attributes, SpanAttributes()), attributeList: Self.take(&state.list, SpanAttributeList()),
            events: Self.take(&rare.events, []), links: Self.take(&rare.links, []), status: Self.take(&state.status, nil))
    }

    /// `value`, moved out (swapped for `empty`, not copied and then released).
    private static func take<Value>(_ value: inout Value, _ empty: Value) -> Value {
        var taken = empty
        swap(&taken, &value)
        return taken
    }
}

/// This service's own spans reach the recording directly (`SpanAttributeListTaking.startRecordedSpan`).
extension RecordingSpan: RecordedSpan {
    /// What `OTelTracer.inject` writes for this span's context, read from the span itself rather
    /// than looked up in a `ServiceContext` and cast out of its `Any`.
    func inject(into fields: inout HTTPHeaders) {
        fields.replaceOrAdd(name: W3CHeader.traceparent, value: context.traceparent)
        if let state = context.traceState { fields.replaceOrAdd(name: W3CHeader.tracestate, value: state) }
    }

    func rename(_ name: String) {
        self.name = name
    }

    /// What `OTelSpan.addEvent` records.
    func addEvent(_ event: SpanEvent) {
        addEvent(SpanRecord.Event(name: event.name, nanosecondsSinceEpoch: event.nanosecondsSinceEpoch, attributes: event.attributes))
    }

    /// Ended now, at the clock `OTelSpan.end()` reads.
    func end() {
        end(at: DefaultTracerClock.now.nanosecondsSinceEpoch)
    }

    /// What `OTelSpan.context` is for this span begun in `parent` (a root span's begun in
    /// `OTelTracer.rootContext`, as `OTelTracer.start` begins it).
    func context(in parent: ServiceContext) -> ServiceContext {
        OTelSpan(parent: parent.isEmpty ? OTelTracer.rootContext : parent, recording: self).context
    }

    /// What `OTelTracer.traceIdentity(of:)` reads from this span's context.
    var traceIdentity: TraceIdentity? { OTelTracer.identity(of: spanContext) }

    /// Added and ended under one turn of the lock, at the clock `OTelSpan.end()` reads.
    func end(adding list: SpanAttributeList) {
        let now = DefaultTracerClock.now.nanosecondsSinceEpoch
        guard var state = endState(adding: list) else { return }
        finish(&state, at: now)
    }

    func end(adding list: SpanAttributeList, sharing shared: SharedSpanAttributes) {
        end(adding: list, sharing: shared, at: DefaultTracerClock.now.nanosecondsSinceEpoch)
    }

    func end(adding list: SpanAttributeList, sharing shared: SharedSpanAttributes?, at nanoseconds: UInt64) {
        guard var state = endState(adding: list) else { return }
        finish(&state, at: nanoseconds, sharing: shared)
    }

    func end(adding key: String, string value: String, sharing shared: SharedSpanAttributes) {
        end(adding: key, string: value, sharing: shared, at: DefaultTracerClock.now.nanosecondsSinceEpoch)
    }

    /// `end(adding: [key: .string(value)], sharing: shared, at: nanoseconds)`, its slow twin (the
    /// tests hold the two bodies equal), without the list: the attribute is written from the
    /// stack when the span holds no other attribute, event or link (a CLIENT span's usual end),
    /// where the list's array was made, filled, handed over and destroyed (with the status shared
    /// too, a CLIENT span's end 3.78 k -> 2.91 k instructions: `UpstreamSpan.end(status:)`).
    func end(adding key: String, string value: String, sharing shared: SharedSpanAttributes, at nanoseconds: UInt64) {
        guard sink.stream != nil else { return end(adding: [key: .string(value)], sharing: shared, at: nanoseconds) }
        guard var state = endState(adding: nil) else { return }
        guard state.list.isEmpty, state.isListed else {
            Self.add([key: .string(value)], to: &state)
            return finish(&state, at: nanoseconds, sharing: shared)
        }
        // The two strings' bytes read once, here, and lent: held as strings, they were retained
        // and released, and their bytes looked up twice, to count and to write.
        ProtobufWriter.withUTF8(key) { key in
            ProtobufWriter.withUTF8(value) { value in
                var own = SizedSpan.OwnString(key: key, value: value)
                withUnsafePointer(to: &own) { finish(&state, at: nanoseconds, sharing: shared, own: $0) }
            }
        }
    }
}

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
// @unchecked: `state` and `hasEnded` are only touched between `lock.lock()` and `lock.unlock()`,
// and `state` after `end` (which set `hasEnded` under it) only by the one call that ended it.
final class RecordingSpan: SpanContextReference, @unchecked Sendable {
    private struct State {
        var name: String
        /// The attributes our own spans hand over whole (`addAttributes`); empty while `rare`
        /// holds attributes set through the span API (one of the two holds them all, so they
        /// never disagree).
        var list = SpanAttributeList()
        /// What this service's own spans seldom hold (a retried exchange's `retry` events, an
        /// error's status); nil until one of it comes.
        var rare: Rare?

        var status: SpanStatus? { rare?.status }

        /// The attributes set through the span API.
        var attributes: SpanAttributes { rare?.attributes ?? SpanAttributes() }
        var hasAttributes: Bool { !(rare?.attributes.isEmpty ?? true) }
        /// No attribute set through the span API, no event and no link: what `SizedSpan` writes.
        /// Inlined down to the nil check a span without `rare` asks: with the box a class, the
        /// three checks of `map`'s closure were a call of their own (about 29 instructions a span).
        @inline(__always)
        var isListed: Bool {
            guard let rare else { return true }
            return rare.isListed
        }

        /// `body` on `rare`, made first when there is none.
        mutating func withRare<Result>(_ body: (Rare) -> Result) -> Result {
            if rare == nil { rare = Rare() }
            return body(rare!)
        }
    }

    /// Attributes set through the span API (`Span.attributes`), events, links and a status: nil
    /// for a span without any (a CLIENT span not retried that answered), so a span's state is
    /// made and destroyed without an empty dictionary and two empty arrays beside its list
    /// (their releases and the checks of each). In a box of its own, the status too: the span's
    /// state is its name, its list and this reference (four words, where inline it was nine:
    /// the span 184 bytes, jemalloc's 192 class, now 160).
    private final class Rare {
        var attributes = SpanAttributes()
        var events: [SpanRecord.Event] = []
        var links: [SpanRecord.Link] = []
        var status: SpanStatus?

        var isListed: Bool { attributes.isEmpty && events.isEmpty && links.isEmpty }
    }

    var context: SpanContext { spanContext }
    let parentSpanID: SpanID?
    let kind: SpanKind
    let startNanoseconds: UInt64
    private let lock = SpinLock()
    /// Read in place by the call that ends the span and destroyed with it: moved out as it ended
    /// (an optional swapped for nil), it was copied out and destroyed through its outlined value
    /// witness (about 78 instructions a CLIENT span), and the deinit destroyed the nil left.
    /// With `Rare` boxed, `UpstreamSpan.end(status:)` and the span's deinit together cost about
    /// 1.4 k instructions less a `/users` request at 100 % (57.2 k -> 55.9 k, each run against main).
    @exclusivity(unchecked) private var state: State
    /// Set once, by `end`: from then on the span ignores changes and its getters answer empty.
    @exclusivity(unchecked) private var hasEnded = false
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

    /// `body` on the state under the lock, unless the span has ended (then `ended`).
    private func withLock<Result>(ended: Result, _ body: (inout State) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        guard !hasEnded else { return ended }
        return body(&state)
    }

    var name: String {
        get { withLock(ended: "") { $0.name } }
        set { withLock(ended: ()) { $0.name = newValue } }
    }

    var attributes: SpanAttributes {
        get {
            withLock(ended: SpanAttributes()) { state in
                state.list.isEmpty ? state.attributes : state.list.attributes
            }
        }
        set {
            withLock(ended: ()) { state in
                state.withRare { $0.attributes = newValue }
                state.list = SpanAttributeList()
            }
        }
    }

    /// Adds `list` (its values win): kept as it is while the span API set none, else merged
    /// into those.
    func addAttributes(_ list: SpanAttributeList) {
        withLock(ended: ()) { Self.add(list, to: &$0) }
    }

    private static func add(_ list: SpanAttributeList, to state: inout State) {
        if state.hasAttributes {
            let rare = state.rare!
            for entry in list.entries { rare.attributes.set(entry.key, value: entry.value) }
        } else if state.list.isEmpty {
            state.list = list
        } else {
            for entry in list.entries { state.list.set(entry.key, entry.value) }
        }
    }

    func addEvent(_ event: SpanRecord.Event) {
        withLock(ended: ()) { state in state.withRare { $0.events.append(event) } }
    }

    func addLink(_ link: SpanRecord.Link) {
        withLock(ended: ()) { state in state.withRare { $0.links.append(link) } }
    }

    /// An error status always wins over ok; ok wins over unset (the spec's precedence).
    func setStatus(_ status: SpanStatus) {
        withLock(ended: ()) { state in
            guard state.status?.code != .ok else { return }
            state.withRare { $0.status = status.code == .ok ? SpanStatus(code: .ok) : status }
        }
    }

    func end(at nanoseconds: UInt64) {
        guard markEnded(adding: nil) else { return }
        withEndedState { finish($0, at: nanoseconds) }
    }

    /// The ended state, written into its export batch where the processor takes spans so
    /// (`BatchSpanProcessor.stream`: no record made, queued or destroyed), else handed over as a
    /// `SpanRecord` (the slow twin; the tests hold the two bodies equal).
    /// `shared`: attributes after the state's own, their keys distinct from those (written as
    /// the encoder wrote them once, `SharedSpanAttributes.memo`; the slow twin adds them to the
    /// state's list).
    /// `own`: one attribute after the state's list, written from where it lies (no list made for
    /// it); given only when the state holds no attribute, event or link (`end(adding:string:sharing:at:)`).
    /// `state`: the ended span's (`withEndedState`).
    private func finish(
        _ state: UnsafeMutablePointer<State>, at nanoseconds: UInt64, sharing shared: SharedSpanAttributes? = nil,
        own: UnsafePointer<SizedSpan.OwnString>? = nil
    ) {
        var shared = shared
        // The condition first: `shared?.list` read first was a copy of the list made for nothing
        // in the usual case.
        if sink.stream == nil || state.pointee.hasAttributes, let list = shared?.list {
            Self.add(list, to: &state.pointee)
            shared = nil
        }
        guard let stream = sink.unretainedStream else { return sink.processor.onEnd(record(taking: &state.pointee, at: nanoseconds)) }
        assert(
            shared.map { shared in !shared.list.entries.contains { state.pointee.list[$0.key] != nil } } ?? true, "a shared key is the span's own too")
        let end = max(nanoseconds, startNanoseconds)
        // Read where they lie: the captured state's fields, passed on, were each copied (retained)
        // and released after (about 200 instructions a span).
        // Counted first, written at once (`SizedSpan`), when it takes the span. `shared` reached
        // unretained: the caller's argument holds it (bound out of the optional and lent on, it
        // was retained and released around `kept`, about 40 instructions a span).
        if state.pointee.isListed, writeSized(state, end: end, to: stream, sharing: shared.map { Unmanaged.passUnretained($0) }, own: own) { return }
        do {
            let state = UnsafePointer(state)
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
        _ state: UnsafeMutablePointer<State>, end: UInt64, to stream: Unmanaged<BatchSpanProcessor>,
        sharing shared: Unmanaged<SharedSpanAttributes>?, own: UnsafePointer<SizedSpan.OwnString>?
    ) -> Bool {
        // The name's bytes read where it lies, the state being this call's alone: read through
        // a copy of the string (`ProtobufWriter.withUTF8`), it was retained and released (about
        // 30 instructions a span).
        state.pointee.name.withUTF8 { name in
            // With `own`, the state holds no attribute (`end(adding:string:sharing:at:)` asked):
            // its list not read, whose empty array was retained and released around the write.
            Self.lending(own == nil ? UnsafePointer(state) : nil) { entries -> Bool in
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
    private static func withSharedBytes<Result>(
        _ shared: Unmanaged<SharedSpanAttributes>?, _ body: (UnsafeBufferPointer<UInt8>?) -> Result
    ) -> Result {
        guard let shared else { return body(nil) }
        if let kept = shared._withUnsafeGuaranteedRef({ $0.kept(OTLPProtobufEncoding.EncodedAttributes.self) }) {
            return body(kept._withUnsafeGuaranteedRef { $0.bytes })
        }
        // None kept yet (`memo` keeps this one), or one of another type (this one is this span's alone).
        let made = shared._withUnsafeGuaranteedRef { $0.memo(OTLPProtobufEncoding.EncodedAttributes.init) }
        return withExtendedLifetime(made) { body(made.bytes) }
    }

    /// `list`'s entries lent to `body`; an empty list's (every CLIENT span's) without asking the
    /// array, which retained and released its empty storage (about 10 instructions a span:
    /// `UpstreamSpan.end(status:)` 63,533 -> 63,215 a `/users` request at 100 %, same run).
    @inline(__always)
    private static func lending<Result>(_ list: SpanAttributeList, _ body: (UnsafeBufferPointer<SpanAttributeList.Entry>) -> Result) -> Result {
        guard !list.isEmpty else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return list.entries.withUnsafeBufferPointer(body)
    }

    /// Marks the span ended, `list` added first, under the lock: from then on it ignores
    /// changes, and its state is the caller's alone (`withEndedState`); false when it had
    /// ended already. The record is made outside the lock: made under it, it was copied out of
    /// the lock's closure and the copy released (about 370 instructions a span).
    private func markEnded(adding list: SpanAttributeList?) -> Bool {
        withLock(ended: false) { state in
            if let list { Self.add(list, to: &state) }
            hasEnded = true
            return true
        }
    }

    /// `body` on the state where it lies, once `markEnded` answered true: no other call touches
    /// it from then on (the getters and changes see `hasEnded` under the lock and leave it).
    @inline(__always)
    private func withEndedState<Result>(_ body: (UnsafeMutablePointer<State>) -> Result) -> Result {
        withUnsafeMutablePointer(to: &state, body)
    }

    /// The record of the state, each part moved out of it (swapped for an empty one): read
    /// from a `consuming` state, each part was copied and the state destroyed after.
    private func record(taking state: inout State, at nanoseconds: UInt64) -> SpanRecord {
        let rare = Self.take(&state.rare, nil)
        return SpanRecord(
            context: context, parentSpanID: parentSpanID, name: Self.take(&state.name, ""), kind: kind,
            startNanoseconds: startNanoseconds, endNanoseconds: max(nanoseconds, startNanoseconds),
            attributes: rare.map { Self.take(&$0.attributes, SpanAttributes()) } ?? SpanAttributes(),
            attributeList: Self.take(&state.list, SpanAttributeList()), events: rare.map { Self.take(&$0.events, []) } ?? [],
            links: rare.map { Self.take(&$0.links, []) } ?? [], status: rare?.status)
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
        guard markEnded(adding: list) else { return }
        withEndedState { finish($0, at: now) }
    }

    func end(adding list: SpanAttributeList, sharing shared: SharedSpanAttributes) {
        end(adding: list, sharing: shared, at: DefaultTracerClock.now.nanosecondsSinceEpoch)
    }

    func end(adding list: SpanAttributeList, sharing shared: SharedSpanAttributes?, at nanoseconds: UInt64) {
        guard markEnded(adding: list) else { return }
        withEndedState { finish($0, at: nanoseconds, sharing: shared) }
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
        guard markEnded(adding: nil) else { return }
        withEndedState { state in
            guard state.pointee.list.isEmpty, state.pointee.isListed else {
                Self.add([key: .string(value)], to: &state.pointee)
                return finish(state, at: nanoseconds, sharing: shared)
            }
            // The two strings' bytes read once, here, and lent: held as strings, they were retained
            // and released, and their bytes looked up twice, to count and to write.
            ProtobufWriter.withUTF8(key) { key in
                ProtobufWriter.withUTF8(value) { value in
                    var own = SizedSpan.OwnString(key: key, value: value)
                    withUnsafePointer(to: &own) { finish(state, at: nanoseconds, sharing: shared, own: $0) }
                }
            }
        }
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Streams
import Tracing

/// A span's attributes as this service's spans build them: one list in the order set, handed to
/// the span whole. A `SpanAttributes` dictionary hashes every key on the way in and again on the
/// way out, and the span API copies it out and back per change; a tracer whose spans take the
/// list (`SpanAttributeListTaking`) keeps it and its exporter writes it as it is. Any other span gets
/// it merged into its `attributes` (the slow twin; the tests hold the two exports equal).
public struct SpanAttributeList: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// One attribute of the list.
    /// A struct, not a `(key:value:)` tuple: the exporter's reads of a tuple element were copied
    /// through the runtime's generic tuple witnesses (about 250 instructions an attribute, 8 %
    /// of a traced `/users` request's tracing cost: Benchmarks/README.md).
    public struct Entry: Sendable {
        public let key: String
        /// The value, the conventions' scalars in the list's own form (`StoredValue`).
        public private(set) var stored: StoredValue

        public init(key: String, value: SpanAttribute) {
            self.key = key
            stored = StoredValue(value)
        }

        public init(key: String, stored: StoredValue) {
            self.key = key
            self.stored = stored
        }

        /// The value as set.
        public var value: SpanAttribute {
            get { stored.attribute }
            set { stored = StoredValue(newValue) }
        }
    }

    /// An attribute's value: a string, a 64-bit integer, a bool or a double in a plain enum of
    /// the list's own, any other `SpanAttribute` as it is. `SpanAttribute`'s copies and destroys
    /// go through its value witnesses (its existential cases), about 100 instructions each, and
    /// a span's attributes are copied and destroyed several times on their way to the exporter;
    /// this enum's are inline.
    public enum StoredValue: Sendable {
        case string(String)
        case int64(Int64)
        case bool(Bool)
        case double(Double)
        case other(SpanAttribute)

        /// `attribute` in this form (`int32` and the arrays stay as they are).
        public init(_ attribute: SpanAttribute) {
            switch attribute {
            case .string(let text): self = .string(text)
            case .int64(let number): self = .int64(number)
            case .bool(let flag): self = .bool(flag)
            case .double(let number): self = .double(number)
            default: self = .other(attribute)
            }
        }

        /// The `SpanAttribute` this is.
        public var attribute: SpanAttribute {
            switch self {
            case .string(let text): .string(text)
            case .int64(let number): .int64(number)
            case .bool(let flag): .bool(flag)
            case .double(let number): .double(number)
            case .other(let attribute): attribute
            }
        }
    }

    /// The attributes in the order set, each key once.
    public private(set) var entries: [Entry] = []

    /// An empty list.
    public init() {}

    /// An empty list with room for `capacity` attributes.
    public init(capacity: Int) {
        entries.reserveCapacity(capacity)
    }

    /// The attributes of a literal, in its order.
    public init(dictionaryLiteral elements: (String, SpanAttribute)...) {
        entries.reserveCapacity(elements.count)
        for (key, value) in elements { set(key, value) }
    }

    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }

    /// Adds `key`, which the list does not hold yet (a span building its list sets each key once:
    /// no search).
    /// The key and value are handed over (`consuming`): moved into the list, not copied into it
    /// and released by the caller (about 100 instructions an attribute).
    public mutating func append(_ key: consuming String, _ value: consuming SpanAttribute) {
        assert(!entries.contains { $0.key == key }, "\(key) is in the list already")
        entries.append(Entry(key: key, value: value))
    }

    /// `append(key, value)` of a value in the list's own form: no `SpanAttribute` made and
    /// converted (about 130 instructions an attribute).
    public mutating func append(_ key: consuming String, stored value: consuming StoredValue) {
        assert(!entries.contains { $0.key == key }, "\(key) is in the list already")
        entries.append(Entry(key: key, stored: value))
    }

    /// Sets `key` to `value`, in its place when the list holds it already.
    public mutating func set(_ key: String, _ value: SpanAttribute) {
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index].value = value
        } else {
            entries.append(Entry(key: key, value: value))
        }
    }

    /// The value of `key`, if set.
    public subscript(key: String) -> SpanAttribute? {
        entries.first { $0.key == key }?.value
    }

    /// The same attributes as the span API's dictionary.
    public var attributes: SpanAttributes {
        var attributes = SpanAttributes()
        for entry in entries { attributes.set(entry.key, value: entry.value) }
        return attributes
    }

    /// Adds these attributes to `span` (a key it holds already takes the list's value): whole,
    /// when `taker` (the tracer of `span`, asked once by its owner) keeps lists; else through
    /// the span's `attributes`.
    public func add(to span: any Span, taker: (any SpanAttributeListTaking)?) {
        if let taker, taker.addAttributes(self, to: span) { return }
        span.updateAttributes { attributes in
            for entry in entries { attributes.set(entry.key, value: entry.value) }
        }
    }

    public static func == (lhs: SpanAttributeList, rhs: SpanAttributeList) -> Bool {
        lhs.entries.count == rhs.entries.count && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

/// A tracer whose spans take a `SpanAttributeList` as it is, without a `SpanAttributes`
/// dictionary. Asked of the tracer once (a conformance check per span cost about 900
/// instructions), then of each span by its concrete type.
/// A class's: its existential is a reference, copied by a retain where the opaque existential of
/// any type was copied and destroyed through its value witnesses (about 170 instructions a span).
public protocol SpanAttributeListTaking: AnyObject, Sendable {
    /// Adds `list`'s attributes to `span` when it is one of this tracer's spans (a key it holds
    /// already takes the list's value); false, doing nothing, for any other span.
    func addAttributes(_ list: SpanAttributeList, to span: any Span) -> Bool

    /// The span `Tracer.startSpan(name, context: context, ofKind: kind)` begins, and its
    /// recording when it records: this service's own spans (the SERVER, CLIENT and stage spans)
    /// then inject, take attributes and end through `recorded`, with no cast of the span, no
    /// lookup of its context in the `ServiceContext` and no generic call through `any Tracer`
    /// (about 3 k instructions a CLIENT span: Benchmarks/README.md). nil `recorded`: the span
    /// records nothing, and `span` is all there is.
    func startRecordedSpan(_ name: String, context: ServiceContext, ofKind kind: SpanKind) -> (span: any Span, recorded: (any RecordedSpan)?)

    /// `startRecordedSpan(name, context: context, ofKind: kind)`, as its recording alone when it
    /// records (`RecordedSpan` then does all the span did, given `context` for the span's own),
    /// else the span: what a CLIENT span begins with, holding one of the two rather than both
    /// (no existential span made, copied in and destroyed beside its recording). The default
    /// goes through `startRecordedSpan` (the slow twin).
    func startSpanOrRecording(_ name: String, context: ServiceContext, ofKind kind: SpanKind) -> StartedSpan

    /// `startRecordedSpan(name, context: context, ofKind: .server)`, with the span's ids as
    /// `TraceIdentityReading.traceIdentity(of: span.context)` names them when the tracer knows
    /// them as it begins the span: a SERVER span's are every traced request's access-log ids, and
    /// an unrecorded span's read back out of its context cost a walk of its entries (about 550
    /// instructions a request at any sampling ratio). The default names none (the slow twin:
    /// read them from the span).
    func startServerSpan(_ name: String, context: ServiceContext) -> ServerSpanStart
}

extension RecordedSpan {
    /// None: `inject(into:)` writes the fields.
    public var traceParent: TraceParentIDs? { nil }
}

extension SpanAttributeListTaking {
    public func startSpanOrRecording(_ name: String, context: ServiceContext, ofKind kind: SpanKind) -> StartedSpan {
        let (span, recorded) = startRecordedSpan(name, context: context, ofKind: kind)
        if let recorded { return .recorded(recorded) }
        return .span(span)
    }

    public func startServerSpan(_ name: String, context: ServiceContext) -> ServerSpanStart {
        let (span, recorded) = startRecordedSpan(name, context: context, ofKind: .server)
        return ServerSpanStart(span: span, recorded: recorded, identity: nil)
    }
}

/// A SERVER span as `SpanAttributeListTaking.startServerSpan` begins it.
public struct ServerSpanStart {
    /// The span.
    public let span: any Span
    /// Its recording, when it records (`startRecordedSpan`'s).
    public let recorded: (any RecordedSpan)?
    /// Its ids, when the tracer named them as it began the span; nil: read them from `span`.
    public let identity: TraceIdentity?

    public init(span: any Span, recorded: (any RecordedSpan)?, identity: TraceIdentity?) {
        self.span = span
        self.recorded = recorded
        self.identity = identity
    }
}

extension Tracer {
    /// The span `startSpan(name, context: context, ofKind: kind)` begins, with its recording when
    /// `lists` (this tracer, when its spans take a list whole) began it and it records
    /// (`SpanAttributeListTaking.startRecordedSpan`); without `lists`, the span alone (the slow twin).
    /// How the SERVER, CLIENT and stage spans begin.
    public func startSpan(
        _ name: String, context: ServiceContext, ofKind kind: SpanKind, lists: (any SpanAttributeListTaking)?
    ) -> (span: any Tracing.Span, recorded: (any RecordedSpan)?) {
        if let lists { return lists.startRecordedSpan(name, context: context, ofKind: kind) }
        return (startSpan(name, context: context, ofKind: kind), nil)
    }
}

/// A span as `SpanAttributeListTaking.startSpanOrRecording` begins it: its recording when it
/// records, else the span itself (which then records nothing, or records without a
/// `RecordedSpan`: a tracer that does not take lists).
public enum StartedSpan: Sendable {
    case recorded(any RecordedSpan)
    case span(any Span)
}

extension Tracer {
    /// `startSpan(name, context:ofKind:lists:)` as a `StartedSpan`: through `lists` when given
    /// (`SpanAttributeListTaking.startSpanOrRecording`), else the span alone (the slow twin).
    public func startSpanOrRecording(
        _ name: String, context: ServiceContext, ofKind kind: SpanKind, lists: (any SpanAttributeListTaking)?
    ) -> StartedSpan {
        if let lists { return lists.startSpanOrRecording(name, context: context, ofKind: kind) }
        return .span(startSpan(name, context: context, ofKind: kind))
    }
}

/// The recording of a span begun by `SpanAttributeListTaking.startRecordedSpan`: what the span
/// API does to it, without the API's existential span. Each call does what its twin through
/// the span and the tracer does (the tests hold the two exports and the fields sent equal).
public protocol RecordedSpan: AnyObject, Sendable {
    /// What `Tracer.inject(span.context, into: &fields, using: HTTPHeadersInjector())` writes
    /// (`traceparent`, and `tracestate` when the trace has one).
    func inject(into fields: inout HTTPHeaders)
    /// What `inject(into:)` writes, as the ids of its `traceparent`, when that is all it writes
    /// (no `tracestate`): an upstream request's head writes them straight from the numbers
    /// (`HTTPClientRequest.traceParent`), with no string made for them. Nil: `inject(into:)`
    /// (the slow twin).
    var traceParent: TraceParentIDs? { get }
    /// `Span.operationName = name`, without the span's existential (a SERVER span named after its route).
    func rename(_ name: String)
    /// The ids `TraceIdentityReading.traceIdentity(of: span.context)` names, read from the
    /// recording (no context made to read them from: a SERVER span's, about 550 instructions a
    /// request); nil: read them from the context (the slow twin).
    var traceIdentity: TraceIdentity? { get }
    /// `list`'s attributes added (`SpanAttributeList.add(to:taker:)`).
    func addAttributes(_ list: SpanAttributeList)
    /// `list`'s attributes added, then the span ended now: `add(to:taker:)`, then `Span.end()`.
    func end(adding list: SpanAttributeList)
    /// `end(adding:)` of `list` and then `shared`'s list (their keys distinct), which an
    /// exporter may write as it wrote them for an earlier span (`SharedSpanAttributes.memo`).
    func end(adding list: SpanAttributeList, sharing shared: SharedSpanAttributes)
    /// `end(adding: [key: .string(value)], sharing: shared)`: a span's one attribute of its own
    /// (a CLIENT span's `url.full`, the rest shared by its origin, stage and status), written
    /// from where it lies with no list made for it.
    func end(adding key: String, string value: String, sharing shared: SharedSpanAttributes)
    /// `Span.setStatus(status)`.
    func setStatus(_ status: SpanStatus)
    /// `Span.addEvent(event)`.
    func addEvent(_ event: SpanEvent)
    /// `Span.end()`.
    func end()
    /// `span.context` of the span begun in `parent` (`startRecordedSpan`'s `context`): made when
    /// read, as the span's own is.
    func context(in parent: ServiceContext) -> ServiceContext
}

extension RecordedSpan {
    /// None: the identity is read from the span's context.
    public var traceIdentity: TraceIdentity? { nil }

    /// Through a list of the one attribute: the slow twin of a recording that writes it as it is.
    public func end(adding key: String, string value: String, sharing shared: SharedSpanAttributes) {
        end(adding: [key: .string(value)], sharing: shared)
    }
}

/// Attributes that many spans carry alike (an upstream origin's `server.address` and
/// `server.port`, an exchange's method and stage), built once and handed to each span whole
/// (`RecordedSpan.end(adding:sharing:)`): an exporter keeps what it makes of them (their
/// protobuf bytes) with them (`memo`), so a CLIENT span's four shared attributes are neither
/// built, copied, written nor destroyed per span (about 1 k instructions a CLIENT span:
/// Benchmarks/README.md).
// @unchecked: `madeType` and `made` are only touched between `lock.lock()` and `lock.unlock()`.
public final class SharedSpanAttributes: @unchecked Sendable {
    public let list: SpanAttributeList
    /// Inline, not a `Locked`'s mutex, and what was made kept as it is, not in a box of its own
    /// with its type beside it in an existential: each CLIENT span's end asks (the mutex, the
    /// box read and its existential copied cost about 150 instructions a span).
    private let lock = SpinLock()
    /// What an exporter made of `list` (the first to ask kept it), and its type.
    @exclusivity(unchecked) private var made: AnyObject?
    @exclusivity(unchecked) private var madeType: ObjectIdentifier?

    public init(_ list: SpanAttributeList) {
        self.list = list
    }

    /// What `make` makes of `list`, made once (the protobuf encoder is the one that asks; were
    /// another type to ask too, it gets one made anew each time). When callers race, each
    /// makes it and the first kept is answered.
    public func memo<Value: AnyObject & Sendable>(_ make: (SpanAttributeList) -> Value) -> Value {
        let type = ObjectIdentifier(Value.self)
        lock.lock()
        // Its type compared, not cast (a dynamic cast is a few hundred instructions).
        if madeType == type, let made {
            lock.unlock()
            return unsafeDowncast(made, to: Value.self)
        }
        let another = madeType != nil
        lock.unlock()
        let value = make(list)
        if another { return value }
        lock.lock()
        defer { lock.unlock() }
        guard let madeType else {
            made = value
            self.madeType = type
            return value
        }
        // Another caller kept one first: that one, when of this type.
        guard madeType == type, let made else { return value }
        return unsafeDowncast(made, to: Value.self)
    }

    /// What `memo` kept, when it kept one of `Value`, lent unretained: it stays as long as `self`
    /// does (once kept it is never replaced), so a caller holding `self` reads it without the
    /// retain and release `memo`'s answer cost (with its call, about 65 instructions a CLIENT
    /// span). nil: none kept yet, or one of another type (then `memo`, the slow twin).
    public func kept<Value: AnyObject & Sendable>(_ type: Value.Type) -> Unmanaged<Value>? {
        lock.lock()
        defer { lock.unlock() }
        guard madeType == ObjectIdentifier(Value.self), let made else { return nil }
        return Unmanaged.passUnretained(unsafeDowncast(made, to: Value.self))
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP

/// One thing that happened inside a pipeline, as `/events` shows it.
///
/// Everything but the id lives in one shared, immutable `Fields` object: an event is copied
/// about eight times on its way from a pipeline to the hub's and the feed's replay buffers, and
/// as seven inline fields (five strings) each copy and destroy touched every string; now a copy
/// is one retain (the figure: Benchmarks/README.md). Setting a
/// field (rare: a replica's name, a decoded timestamp) makes a new `Fields`.
public struct PipelineEvent: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case subscribe, data, error, retry, end, dispose
    }

    /// Assigned by the event log (`PipelineEventHub.log`): strictly increasing, starting at 1;
    /// 0 while not numbered yet (then left out of the JSON). Inline, so numbering an event does not
    /// copy its fields.
    public var id: Int
    private var fields: Fields

    public var kind: Kind {
        get { fields.values.kind }
        set { fields = fields.setting(\.kind, newValue) }
    }
    public var pipeline: String {
        get { fields.values.pipeline }
        set { fields = fields.setting(\.pipeline, newValue) }
    }
    public var requestId: String {
        get { fields.values.requestId }
        set { fields = fields.setting(\.requestId, newValue) }
    }
    public var stage: String {
        get { fields.values.stage }
        set { fields = fields.setting(\.stage, newValue) }
    }
    /// RFC 3339 with milliseconds, UTC. Formatted when read: a `/users` request records
    /// about 100 events, most of which no client ever reads, and formatting each when it was
    /// made was work thrown away (the figure: Benchmarks/README.md); the text read later is the same.
    public var timestamp: String {
        get {
            switch fields.values.stamp {
            case .date(let date): Self.format(date)
            case .text(let text): text
            }
        }
        set { fields = fields.setting(\.stamp, .text(newValue)) }
    }
    public var detail: String? {
        get { fields.values.detail }
        set { fields = fields.setting(\.detail, newValue) }
    }
    /// The replica that produced the event, when replicas share one feed (`--redis-url`); nil (and absent from JSON) otherwise.
    public var replica: String? {
        get { fields.values.replica }
        set { fields = fields.setting(\.replica, newValue) }
    }

    /// The trace of the request whose pipeline made the event (W3C trace id, 32 hex digits),
    /// when it was traced; nil (and absent from JSON) otherwise.
    public var traceId: String? {
        get { fields.values.traceId }
        set { fields = fields.setting(\.traceId, newValue) }
    }

    private enum Stamp: Sendable, Equatable {
        case date(Date)
        case text(String)
    }

    /// The fields, shared by every copy of one event.
    private final class Fields: Sendable {
        let values: Values

        init(_ values: Values) {
            self.values = values
        }

        /// A new `Fields` with one value changed.
        func setting<Value>(_ field: WritableKeyPath<Values, Value>, _ value: Value) -> Fields {
            var values = values
            values[keyPath: field] = value
            return Fields(values)
        }
    }

    private struct Values: Sendable {
        var kind: Kind
        var pipeline: String
        var requestId: String
        var stage: String
        var stamp: Stamp
        var detail: String?
        var replica: String?
        var traceId: String?
    }

    public init(
        id: Int = 0, kind: Kind, pipeline: String, requestId: String, stage: String,
        timestamp: Date = Date(), detail: String? = nil, traceId: String? = nil
    ) {
        self.id = id
        fields = Fields(Values(
            kind: kind, pipeline: pipeline, requestId: requestId, stage: stage, stamp: .date(timestamp), detail: detail, traceId: traceId))
    }

    private enum CodingKeys: String, CodingKey {
        case id, kind, pipeline, requestId, stage, timestamp, detail, replica, traceId
    }

    /// The fields as the synthesized conformance had them: optionals absent when nil.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(Int.self, forKey: .id) ?? 0
        fields = Fields(Values(
            kind: try container.decode(Kind.self, forKey: .kind),
            pipeline: try container.decode(String.self, forKey: .pipeline),
            requestId: try container.decode(String.self, forKey: .requestId),
            stage: try container.decode(String.self, forKey: .stage),
            stamp: .text(try container.decode(String.self, forKey: .timestamp)),
            detail: try container.decodeIfPresent(String.self, forKey: .detail),
            replica: try container.decodeIfPresent(String.self, forKey: .replica),
            traceId: try container.decodeIfPresent(String.self, forKey: .traceId)))
    }

    /// The event's JSON, as `/events` sends it and the shared stream carries it: the one writer
    /// of an event's fields (a new field is a line here and one in `init(from:)`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if id != 0 { try container.encode(id, forKey: .id) }
        try container.encode(kind, forKey: .kind)
        try container.encode(pipeline, forKey: .pipeline)
        try container.encode(requestId, forKey: .requestId)
        try container.encode(stage, forKey: .stage)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encodeIfPresent(detail, forKey: .detail)
        try container.encodeIfPresent(replica, forKey: .replica)
        try container.encodeIfPresent(traceId, forKey: .traceId)
    }

    /// Equal when every field reads the same (a timestamp as its text).
    public static func == (lhs: PipelineEvent, rhs: PipelineEvent) -> Bool {
        lhs.id == rhs.id && lhs.kind == rhs.kind && lhs.pipeline == rhs.pipeline && lhs.requestId == rhs.requestId
            && lhs.stage == rhs.stage && lhs.detail == rhs.detail && lhs.replica == rhs.replica && lhs.traceId == rhs.traceId
            && lhs.timestamp == rhs.timestamp
    }

    /// The JSON text (`encode(to:)`, in the one configuration of every JSON answer,
    /// `Response.jsonEncoder()`): written once per event, with its id.
    public var json: String {
        (try? Response.jsonEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func format(_ date: Date) -> String {
        RFC3339Timestamp.format(date)
    }
}

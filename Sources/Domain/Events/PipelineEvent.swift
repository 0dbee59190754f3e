#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One thing that happened inside a pipeline, as `/events` shows it.
public struct PipelineEvent: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case subscribe, data, error, retry, end, dispose
    }

    /// Assigned by the hub: strictly increasing, starting at 1.
    public var id: Int
    public var kind: Kind
    public var pipeline: String
    public var requestId: String
    public var stage: String
    /// RFC 3339 with milliseconds, UTC. Formatted when read: a `/users` request records
    /// about 100 events, most of which no client ever reads, and formatting each when it was
    /// made cost about 1,000 instructions (callgrind); the text read later is the same.
    public var timestamp: String {
        get {
            switch stamp {
            case .date(let date): Self.format(date)
            case .text(let text): text
            }
        }
        set { stamp = .text(newValue) }
    }
    public var detail: String?
    /// The replica that produced the event, when replicas share one feed (`--redis-url`); nil (and absent from JSON) otherwise.
    public var replica: String?
    private var stamp: Stamp

    private enum Stamp: Sendable {
        case date(Date)
        case text(String)
    }

    public init(
        id: Int = 0, kind: Kind, pipeline: String, requestId: String, stage: String,
        timestamp: Date = Date(), detail: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.pipeline = pipeline
        self.requestId = requestId
        self.stage = stage
        stamp = .date(timestamp)
        self.detail = detail
    }

    private enum CodingKeys: String, CodingKey {
        case id, kind, pipeline, requestId, stage, timestamp, detail, replica
    }

    /// The fields as the synthesized conformance had them: optionals absent when nil.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        kind = try container.decode(Kind.self, forKey: .kind)
        pipeline = try container.decode(String.self, forKey: .pipeline)
        requestId = try container.decode(String.self, forKey: .requestId)
        stage = try container.decode(String.self, forKey: .stage)
        stamp = .text(try container.decode(String.self, forKey: .timestamp))
        detail = try container.decodeIfPresent(String.self, forKey: .detail)
        replica = try container.decodeIfPresent(String.self, forKey: .replica)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(pipeline, forKey: .pipeline)
        try container.encode(requestId, forKey: .requestId)
        try container.encode(stage, forKey: .stage)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encodeIfPresent(detail, forKey: .detail)
        try container.encodeIfPresent(replica, forKey: .replica)
    }

    /// Equal when every field reads the same (a timestamp as its text).
    public static func == (lhs: PipelineEvent, rhs: PipelineEvent) -> Bool {
        lhs.id == rhs.id && lhs.kind == rhs.kind && lhs.pipeline == rhs.pipeline && lhs.requestId == rhs.requestId
            && lhs.stage == rhs.stage && lhs.detail == rhs.detail && lhs.replica == rhs.replica && lhs.timestamp == rhs.timestamp
    }

    static func format(_ date: Date) -> String {
        RFC3339Timestamp.format(date)
    }
}

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
    /// RFC 3339 with milliseconds, UTC.
    public var timestamp: String
    public var detail: String?
    /// The replica that produced the event, when replicas share one feed (`--redis-url`); nil (and absent from JSON) otherwise.
    public var replica: String?

    public init(
        id: Int = 0, kind: Kind, pipeline: String, requestId: String, stage: String,
        timestamp: Date = Date(), detail: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.pipeline = pipeline
        self.requestId = requestId
        self.stage = stage
        self.timestamp = Self.format(timestamp)
        self.detail = detail
    }

    static func format(_ date: Date) -> String {
        EventTimestamp.format(date)
    }
}

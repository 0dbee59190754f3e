import NetCore

/// Which hub events a `/events` subscriber wants: `?pipeline=` and `?kinds=` (comma list).
public struct PipelineEventFilter: Sendable, Equatable {
    public var pipeline: String?
    public var kinds: Set<PipelineEvent.Kind>?

    public init(pipeline: String? = nil, kinds: Set<PipelineEvent.Kind>? = nil) {
        self.pipeline = pipeline
        self.kinds = kinds
    }

    public enum Invalid: Error, Equatable {
        case unknownKind(String)
    }

    /// Parses the query values; an empty value means "no filter".
    public init(pipeline: String?, kinds: String?) throws {
        self.pipeline = (pipeline?.isEmpty ?? true) ? nil : pipeline
        guard let kinds, !kinds.isEmpty else {
            self.kinds = nil
            return
        }
        var parsed = Set<PipelineEvent.Kind>()
        for name in kinds.split(separator: ",") {
            let trimmed = name.trimmingWhitespace()
            guard let kind = PipelineEvent.Kind(rawValue: trimmed) else { throw Invalid.unknownKind(trimmed) }
            parsed.insert(kind)
        }
        self.kinds = parsed
    }

    public func admits(_ event: PipelineEvent) -> Bool {
        (pipeline == nil || pipeline == event.pipeline) && (kinds?.contains(event.kind) ?? true)
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Which hub events a `/events` subscriber wants (nil: any pipeline, any kind).
public struct PipelineEventFilter: Sendable, Equatable {
    public var pipeline: String?
    public var kinds: Set<PipelineEvent.Kind>?

    public init(pipeline: String? = nil, kinds: Set<PipelineEvent.Kind>? = nil) {
        self.pipeline = pipeline
        self.kinds = kinds
    }

    public func admits(_ event: PipelineEvent) -> Bool {
        (pipeline == nil || pipeline == event.pipeline) && (kinds?.contains(event.kind) ?? true)
    }
}

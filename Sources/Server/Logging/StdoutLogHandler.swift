// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import Logging

/// A swift-log handler printing one line per event to a `LineWriter` (stdout).
public struct StdoutLogHandler: LogHandler {
    public let label: String
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let formatter: LogLineFormatter
    private let writer: LineWriter

    public init(label: String, level: Logger.Level, format: ServiceConfiguration.LogFormat, writer: LineWriter = .standardOutput) {
        self.label = label
        self.logLevel = level
        self.formatter = LogLineFormatter(format: format)
        self.writer = writer
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        // The access log's hot path: no handler metadata, so the event's is used as is.
        var merged = metadata.isEmpty && metadataProvider == nil ? event.metadata ?? [:] : metadata
        if !metadata.isEmpty || metadataProvider != nil {
            if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
            if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        }
        if let error = event.error { merged["error"] = .string(String(describing: error)) }
        writer.write(formatter.line(time: RFC3339Timestamp.now(), level: event.level, label: label, message: event.message.description, metadata: merged))
    }
}

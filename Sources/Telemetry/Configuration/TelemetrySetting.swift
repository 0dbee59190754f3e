// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The OpenTelemetry environment variables this SDK reads (the `serve` flags of the same names
/// set them too: `--otel-exporter-otlp-endpoint` for `OTEL_EXPORTER_OTLP_ENDPOINT`, …).
public enum TelemetrySetting: String, CaseIterable, Sendable {
    case endpoint = "OTEL_EXPORTER_OTLP_ENDPOINT"
    case tracesEndpoint = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
    case `protocol` = "OTEL_EXPORTER_OTLP_PROTOCOL"
    case headers = "OTEL_EXPORTER_OTLP_HEADERS"
    case compression = "OTEL_EXPORTER_OTLP_COMPRESSION"
    case timeout = "OTEL_EXPORTER_OTLP_TIMEOUT"
    case serviceName = "OTEL_SERVICE_NAME"
    case resourceAttributes = "OTEL_RESOURCE_ATTRIBUTES"
    case tracesSampler = "OTEL_TRACES_SAMPLER"
    case tracesSamplerArg = "OTEL_TRACES_SAMPLER_ARG"
    case scheduleDelay = "OTEL_BSP_SCHEDULE_DELAY"
    case maxQueueSize = "OTEL_BSP_MAX_QUEUE_SIZE"
    case maxExportBatchSize = "OTEL_BSP_MAX_EXPORT_BATCH_SIZE"
    case sdkDisabled = "OTEL_SDK_DISABLED"

    public var environmentVariable: String { rawValue }
}

/// A tracing value that cannot be used: which setting, the value (nil when it must not be echoed,
/// e.g. headers that may hold a token) and why.
public struct TelemetryConfigurationError: Error, Equatable, CustomStringConvertible {
    public let setting: TelemetrySetting
    public let value: String?
    public let reason: String

    public init(_ setting: TelemetrySetting, value: String?, reason: String) {
        self.setting = setting
        self.value = value
        self.reason = reason
    }

    public var description: String {
        guard let value else { return "\(setting.rawValue): \(reason)" }
        return "invalid value \"\(value)\" for \(setting.rawValue): \(reason)"
    }
}

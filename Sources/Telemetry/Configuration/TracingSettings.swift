// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetCore

/// Tracing as configured by the OpenTelemetry environment variables (or the matching flags):
/// where and how spans are exported, what is sampled, the batch limits.
public struct TracingSettings: Sendable, Equatable {
    public enum WireProtocol: String, Sendable, Equatable {
        case protobuf = "http/protobuf"
        case json = "http/json"

        public var contentType: String { self == .protobuf ? "application/x-protobuf" : "application/json" }
    }

    /// The full traces URL spans are POSTed to (`…/v1/traces` under `OTEL_EXPORTER_OTLP_ENDPOINT`).
    public var tracesEndpoint: URL
    public var wireProtocol: WireProtocol = .protobuf
    /// Sent with every export (e.g. an API key); never logged.
    public var headers: [(String, String)] = []
    public var gzip = false
    /// Each export attempt (OTLP's default 10 s).
    public var timeout: Duration = .seconds(10)
    public var resource = Resource(serviceName: "stream-service")
    public var sampler = Sampler.default
    public var limits = BatchSpanProcessor.Limits()

    public init(tracesEndpoint: URL) {
        self.tracesEndpoint = tracesEndpoint
    }

    public static func == (lhs: TracingSettings, rhs: TracingSettings) -> Bool {
        lhs.tracesEndpoint == rhs.tracesEndpoint && lhs.wireProtocol == rhs.wireProtocol
            && lhs.headers.map(\.0) == rhs.headers.map(\.0) && lhs.headers.map(\.1) == rhs.headers.map(\.1)
            && lhs.gzip == rhs.gzip && lhs.timeout == rhs.timeout && lhs.resource == rhs.resource
            && lhs.sampler == rhs.sampler && lhs.limits == rhs.limits
    }

    /// One line for the start log: `otlp http/protobuf to http://collector:4318/v1/traces, sampler parentbased_always_on`.
    public var summary: String {
        "\(wireProtocol.rawValue)\(gzip ? "+gzip" : "") to \(tracesEndpoint.absoluteString), sampler \(sampler), service \(resource.serviceName)"
    }

    /// Reads every setting through `value` (flag, else environment; nil or empty = unset), validating
    /// each. nil: tracing is off (`OTEL_SDK_DISABLED=true`, or no endpoint), and nothing else is read.
    public static func resolve(_ value: (TelemetrySetting) -> String?) throws(TelemetryConfigurationError) -> TracingSettings? {
        func raw(_ setting: TelemetrySetting) -> String? {
            guard let text = value(setting), !text.isEmpty else { return nil }
            return text
        }
        if let disabled = raw(.sdkDisabled) {
            switch disabled.trimmingWhitespace().lowercased() {
            case "true": return nil
            case "false": break
            default: throw TelemetryConfigurationError(.sdkDisabled, value: disabled, reason: "expected true or false")
            }
        }
        guard let endpoint = try tracesEndpoint(raw(.tracesEndpoint), base: raw(.endpoint)) else { return nil }
        var settings = TracingSettings(tracesEndpoint: endpoint)
        if let text = raw(.protocol) {
            switch text.trimmingWhitespace().lowercased() {
            case "http/protobuf": settings.wireProtocol = .protobuf
            case "http/json": settings.wireProtocol = .json
            case "grpc": throw TelemetryConfigurationError(.protocol, value: text, reason: "grpc is not supported (this SDK exports OTLP over HTTP); expected http/protobuf or http/json")
            default: throw TelemetryConfigurationError(.protocol, value: text, reason: "expected http/protobuf or http/json")
            }
        }
        if let text = raw(.headers) {
            guard let headers = KeyValueList.parse(text), headers.allSatisfy({ isToken($0.0) && !$0.1.contains(where: { $0 == "\r" || $0 == "\n" }) }) else {
                // Not echoed: headers often carry an API key.
                throw TelemetryConfigurationError(.headers, value: nil, reason: "expected name=value pairs separated by commas, values percent-encoded, e.g. api-key=secret")
            }
            settings.headers = headers
        }
        if let text = raw(.compression) {
            switch text.trimmingWhitespace().lowercased() {
            case "gzip": settings.gzip = true
            case "none": settings.gzip = false
            default: throw TelemetryConfigurationError(.compression, value: text, reason: "expected gzip or none")
            }
        }
        if let milliseconds = try integer(raw(.timeout), .timeout, in: 1...600_000) { settings.timeout = .milliseconds(milliseconds) }
        var attributes: [(String, String)] = []
        if let text = raw(.resourceAttributes) {
            guard let pairs = KeyValueList.parse(text) else {
                throw TelemetryConfigurationError(.resourceAttributes, value: text, reason: "expected key=value pairs separated by commas, values percent-encoded, e.g. deployment.environment=prod")
            }
            attributes = pairs
        }
        let serviceName = raw(.serviceName)?.trimmingWhitespace() ?? attributes.first { $0.0 == "service.name" }?.1 ?? "stream-service"
        guard !serviceName.isEmpty else { throw TelemetryConfigurationError(.serviceName, value: raw(.serviceName), reason: "expected a name, e.g. stream-service") }
        settings.resource = Resource(serviceName: serviceName, attributes: attributes)
        if let name = raw(.tracesSampler) {
            settings.sampler = try Sampler.parse(name: name, argument: raw(.tracesSamplerArg))
        } else if let argument = raw(.tracesSamplerArg) {
            // The default sampler takes no argument; one given alone is a mistake worth stopping for.
            throw TelemetryConfigurationError(.tracesSamplerArg, value: argument, reason: "needs OTEL_TRACES_SAMPLER=traceidratio or parentbased_traceidratio")
        }
        if let milliseconds = try integer(raw(.scheduleDelay), .scheduleDelay, in: 1...3_600_000) { settings.limits.scheduleDelay = .milliseconds(milliseconds) }
        if let size = try integer(raw(.maxQueueSize), .maxQueueSize, in: 1...1_000_000) { settings.limits.maxQueueSize = size }
        if let size = try integer(raw(.maxExportBatchSize), .maxExportBatchSize, in: 1...1_000_000) { settings.limits.maxExportBatchSize = size }
        guard settings.limits.maxExportBatchSize <= settings.limits.maxQueueSize else {
            throw TelemetryConfigurationError(
                .maxExportBatchSize, value: String(settings.limits.maxExportBatchSize),
                reason: "must not exceed OTEL_BSP_MAX_QUEUE_SIZE (\(settings.limits.maxQueueSize))")
        }
        return settings
    }

    /// The signal-specific endpoint as given, else the base endpoint with `v1/traces` appended.
    private static func tracesEndpoint(_ traces: String?, base: String?) throws(TelemetryConfigurationError) -> URL? {
        if let traces { return try httpURL(traces, .tracesEndpoint) }
        guard let base else { return nil }
        let url = try httpURL(base, .endpoint)
        let text = url.absoluteString
        return URL(string: text + (text.hasSuffix("/") ? "" : "/") + "v1/traces") ?? url
    }

    private static func httpURL(_ text: String, _ setting: TelemetrySetting) throws(TelemetryConfigurationError) -> URL {
        let trimmed = text.trimmingWhitespace()
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty, url.query == nil
        else {
            throw TelemetryConfigurationError(setting, value: text, reason: "expected an http:// or https:// URL, e.g. http://127.0.0.1:4318")
        }
        return url
    }

    private static func integer(_ text: String?, _ setting: TelemetrySetting, in range: ClosedRange<Int>) throws(TelemetryConfigurationError) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text.trimmingWhitespace()), range.contains(value) else {
            throw TelemetryConfigurationError(setting, value: text, reason: "expected an integer from \(range.lowerBound) to \(range.upperBound) (milliseconds for times)")
        }
        return value
    }

    /// An HTTP field name (RFC 9110 token).
    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
        }
    }
}

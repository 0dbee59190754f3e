// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Telemetry
import XCTest
@testable import Server

/// The OpenTelemetry variables and their `--otel-*` flags: read as the spec says, refused with one line when bad.
final class TracingConfigurationTests: XCTestCase {
    private func resolve(_ flags: [ConfigurationSetting: String] = [:], _ environment: [String: String] = [:]) throws -> ServiceConfiguration {
        try ServiceConfiguration.resolve(flags: flags, environment: environment)
    }

    private func assertRefused(_ flags: [ConfigurationSetting: String], _ environment: [String: String] = [:], saying expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try resolve(flags, environment), file: file, line: line) { error in
            XCTAssertEqual((error as? ConfigurationError)?.description, expected, file: file, line: line)
        }
    }

    func testWithoutAnEndpointTracingIsOff() throws {
        XCTAssertNil(try resolve().tracing)
        XCTAssertNil(try resolve([:], ["OTEL_SERVICE_NAME": "web", "OTEL_TRACES_SAMPLER": "always_on"]).tracing)
    }

    func testSdkDisabledTurnsTracingOffWhateverElseIsSet() throws {
        XCTAssertNil(try resolve([:], ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SDK_DISABLED": "TRUE"]).tracing)
        XCTAssertNotNil(try resolve([:], ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SDK_DISABLED": "false"]).tracing)
    }

    func testTheEndpointGetsV1TracesAndTheTracesEndpointIsTakenAsGiven() throws {
        XCTAssertEqual(try resolve([:], ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"]).tracing?.tracesEndpoint.absoluteString, "http://collector:4318/v1/traces")
        XCTAssertEqual(try resolve([:], ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318/base/"]).tracing?.tracesEndpoint.absoluteString, "http://collector:4318/base/v1/traces")
        XCTAssertEqual(
            try resolve([:], ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://a:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "https://b/custom/path"]).tracing?.tracesEndpoint.absoluteString,
            "https://b/custom/path")
    }

    func testTheDefaultsAreTheSpecs() throws {
        let tracing = try XCTUnwrap(try resolve([.otelExporterOtlpEndpoint: "http://127.0.0.1:4318"]).tracing)
        XCTAssertEqual(tracing.wireProtocol, .protobuf)
        XCTAssertEqual(tracing.sampler, .parentBased(root: .alwaysOn))
        XCTAssertEqual(tracing.timeout, .seconds(10))
        XCTAssertFalse(tracing.gzip)
        XCTAssertEqual(tracing.limits, BatchSpanProcessor.Limits())
        XCTAssertEqual(tracing.limits.maxQueueSize, 2048)
        XCTAssertEqual(tracing.limits.maxExportBatchSize, 512)
        XCTAssertEqual(tracing.limits.scheduleDelay, .milliseconds(5000))
        XCTAssertEqual(tracing.resource.serviceName, "stream-service")
    }

    func testEverySettingIsRead() throws {
        let tracing = try XCTUnwrap(try resolve([:], [
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
            "OTEL_EXPORTER_OTLP_HEADERS": "api-key=a%20b,x-team=core", "OTEL_EXPORTER_OTLP_COMPRESSION": "gzip",
            "OTEL_EXPORTER_OTLP_TIMEOUT": "2500", "OTEL_SERVICE_NAME": "web",
            "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=prod,service.name=ignored", "OTEL_TRACES_SAMPLER": "parentbased_traceidratio",
            "OTEL_TRACES_SAMPLER_ARG": "0.01", "OTEL_BSP_SCHEDULE_DELAY": "200", "OTEL_BSP_MAX_QUEUE_SIZE": "100", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "50",
        ]).tracing)
        XCTAssertEqual(tracing.wireProtocol, .json)
        XCTAssertEqual(tracing.headers.map(\.0), ["api-key", "x-team"])
        XCTAssertEqual(tracing.headers.map(\.1), ["a b", "core"])
        XCTAssertTrue(tracing.gzip)
        XCTAssertEqual(tracing.timeout, .milliseconds(2500))
        XCTAssertEqual(tracing.resource.serviceName, "web")
        XCTAssertTrue(tracing.resource.attributes.contains { $0 == ("deployment.environment", "prod") })
        XCTAssertEqual(tracing.sampler, .parentBased(root: .traceIDRatio(0.01)))
        XCTAssertEqual(tracing.limits.scheduleDelay, .milliseconds(200))
        XCTAssertEqual(tracing.limits.maxQueueSize, 100)
        XCTAssertEqual(tracing.limits.maxExportBatchSize, 50)
    }

    func testAFlagWinsOverItsVariable() throws {
        let tracing = try resolve([.otelServiceName: "from-flag", .otelExporterOtlpEndpoint: "http://127.0.0.1:1"], ["OTEL_SERVICE_NAME": "from-env"]).tracing
        XCTAssertEqual(tracing?.resource.serviceName, "from-flag")
    }

    func testBadValuesAreRefusedNamingTheFlagOrTheVariable() {
        let endpoint = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"]
        assertRefused([.otelExporterOtlpEndpoint: "collector:4318"], saying: "error: invalid value \"collector:4318\" for --otel-exporter-otlp-endpoint: expected an http:// or https:// URL, e.g. http://127.0.0.1:4318")
        assertRefused([:], endpoint.merging(["OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"]) { $1 }, saying: "error: invalid value \"grpc\" for --otel-exporter-otlp-protocol (from OTEL_EXPORTER_OTLP_PROTOCOL): grpc is not supported (this SDK exports OTLP over HTTP); expected http/protobuf or http/json")
        assertRefused([:], endpoint.merging(["OTEL_EXPORTER_OTLP_COMPRESSION": "br"]) { $1 }, saying: "error: invalid value \"br\" for --otel-exporter-otlp-compression (from OTEL_EXPORTER_OTLP_COMPRESSION): expected gzip or none")
        assertRefused([:], endpoint.merging(["OTEL_EXPORTER_OTLP_TIMEOUT": "10s"]) { $1 }, saying: "error: invalid value \"10s\" for --otel-exporter-otlp-timeout (from OTEL_EXPORTER_OTLP_TIMEOUT): expected an integer from 1 to 600000 (milliseconds for times)")
        assertRefused([.otelTracesSampler: "sometimes"], endpoint, saying: "error: invalid value \"sometimes\" for --otel-traces-sampler: expected always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off or parentbased_traceidratio")
        assertRefused([.otelTracesSampler: "traceidratio", .otelTracesSamplerArg: "2"], endpoint, saying: "error: invalid value \"2\" for --otel-traces-sampler-arg: expected a ratio from 0.0 to 1.0")
        assertRefused([.otelBspMaxQueueSize: "0"], endpoint, saying: "error: invalid value \"0\" for --otel-bsp-max-queue-size: expected an integer from 1 to 1000000 (milliseconds for times)")
        assertRefused([.otelBspMaxQueueSize: "10", .otelBspMaxExportBatchSize: "20"], endpoint, saying: "error: invalid value \"20\" for --otel-bsp-max-export-batch-size: must not exceed OTEL_BSP_MAX_QUEUE_SIZE (10)")
        assertRefused([.otelSdkDisabled: "yes"], endpoint, saying: "error: invalid value \"yes\" for --otel-sdk-disabled: expected true or false")
        assertRefused([.otelResourceAttributes: "novalue"], endpoint, saying: "error: invalid value \"novalue\" for --otel-resource-attributes: expected key=value pairs separated by commas, values percent-encoded, e.g. deployment.environment=prod")
    }

    func testBadHeadersAreRefusedWithoutEchoingThem() {
        assertRefused([.otelExporterOtlpHeaders: "api key=secret"], ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"],
            saying: "error: --otel-exporter-otlp-headers: expected name=value pairs separated by commas, values percent-encoded, e.g. api-key=secret")
    }

    func testAServeWithABadVariableExits64NamingIt() throws {
        let service = try ServiceProcess(["serve", "--port", "0"], environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_TRACES_SAMPLER": "half"])
        XCTAssertEqual(service.exitStatus(), 64)
        XCTAssertTrue(service.errorOutput.contains("--otel-traces-sampler (from OTEL_TRACES_SAMPLER)"), service.errorOutput)
    }

    func testTheHelpListsEveryOTelFlagWithItsVariable() throws {
        let service = try ServiceProcess(["serve", "--help"])
        XCTAssertEqual(service.exitStatus(), 0)
        let help = service.output.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        for setting in TelemetrySetting.allCases {
            let flag = ConfigurationSetting(telemetry: setting).flag
            XCTAssertTrue(help.contains(flag), flag)
            XCTAssertTrue(help.contains("[env: \(setting.environmentVariable)]"), setting.environmentVariable)
        }
    }
}

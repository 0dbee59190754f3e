// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Logging
import XCTest
@testable import Server
import HTTP
import HTTPTestSupport

final class ServiceConfigurationTests: XCTestCase {
    func testDefaultsApplyWhenNothingIsGiven() throws {
        let configuration = try ServiceConfiguration.resolve(flags: [:], environment: [:])
        XCTAssertEqual(configuration.host, "0.0.0.0")
        XCTAssertEqual(configuration.port, 8080)
        XCTAssertNil(configuration.upstream)
        XCTAssertNil(configuration.githubToken)
        XCTAssertEqual(configuration.demoLatency, .zero)
        XCTAssertEqual(configuration.demoFailureRate, 0)
        XCTAssertEqual(configuration.demoUsers, 1000)
        XCTAssertEqual(configuration.headerTimeout, .seconds(10))
        XCTAssertEqual(configuration.idleTimeout, .seconds(60))
        XCTAssertEqual(configuration.maxBodyBytes, 1 << 20)
        XCTAssertNil(configuration.tls)
        XCTAssertEqual(configuration.logLevel, .info)
        XCTAssertEqual(configuration.logFormat, .text)
    }

    func testEnvironmentVariablesSetEverySetting() throws {
        let environment = [
            "HOST": "127.0.0.1", "PORT": "9090", "UPSTREAM_URL": "https://api.github.com", "GITHUB_TOKEN": "t0k",
            "DEMO_LATENCY_MS": "25", "DEMO_FAILURE_RATE": "0.1", "DEMO_USERS": "50",
            "HEADER_TIMEOUT": "2.5", "IDLE_TIMEOUT": "30", "SHUTDOWN_TIMEOUT": "0", "MAX_BODY_BYTES": "2048",
            "MAX_CONNECTIONS": "100", "SSE_HEARTBEAT": "0.5", "LOG_LEVEL": "debug", "LOG_FORMAT": "json",
        ]
        let configuration = try ServiceConfiguration.resolve(flags: [:], environment: environment)
        XCTAssertEqual(configuration.host, "127.0.0.1")
        XCTAssertEqual(configuration.port, 9090)
        XCTAssertEqual(configuration.upstream?.absoluteString, "https://api.github.com")
        XCTAssertEqual(configuration.githubToken, "t0k")
        XCTAssertEqual(configuration.demoLatency, .milliseconds(25))
        XCTAssertEqual(configuration.demoFailureRate, 0.1)
        XCTAssertEqual(configuration.demoUsers, 50)
        XCTAssertEqual(configuration.headerTimeout, .milliseconds(2500))
        XCTAssertEqual(configuration.idleTimeout, .seconds(30))
        XCTAssertEqual(configuration.shutdownTimeout, .zero)
        XCTAssertEqual(configuration.maxBodyBytes, 2048)
        XCTAssertEqual(configuration.maxConnections, 100)
        XCTAssertEqual(configuration.sseHeartbeat, .milliseconds(500))
        XCTAssertEqual(configuration.logLevel, .debug)
        XCTAssertEqual(configuration.logFormat, .json)
    }

    func testFlagBeatsEnvironment() throws {
        let configuration = try ServiceConfiguration.resolve(flags: [.port: "7000"], environment: ["PORT": "9090"])
        XCTAssertEqual(configuration.port, 7000)
    }

    func testEmptyEnvironmentVariableCountsAsUnset() throws {
        let configuration = try ServiceConfiguration.resolve(flags: [:], environment: ["GITHUB_TOKEN": "", "PORT": ""])
        XCTAssertNil(configuration.githubToken)
        XCTAssertEqual(configuration.port, 8080)
    }

    func testEveryEnvironmentVariableIsNamedAfterItsFlag() {
        XCTAssertEqual(ConfigurationSetting.demoLatencyMs.flag, "--demo-latency-ms")
        XCTAssertEqual(ConfigurationSetting.demoLatencyMs.environmentVariable, "DEMO_LATENCY_MS")
        XCTAssertEqual(ConfigurationSetting.upstream.environmentVariable, "UPSTREAM_URL")
        XCTAssertEqual(ConfigurationSetting.githubToken.environmentVariable, "GITHUB_TOKEN")
        XCTAssertEqual(ConfigurationSetting.tlsCert.flag, "--tls-cert")
        XCTAssertEqual(ConfigurationSetting.sseHeartbeat.environmentVariable, "SSE_HEARTBEAT")
    }

    func testNonNumericPortIsRejectedNamingTheFlag() {
        assertRejected(flags: [.port: "http"], setting: .port, message: "error: invalid value \"http\" for --port: expected an integer from 0 to 65535")
    }

    func testBadValueFromEnvironmentNamesFlagAndVariable() {
        assertRejected(environment: ["PORT": "70000"], setting: .port, message: "error: invalid value \"70000\" for --port (from PORT): expected an integer from 0 to 65535")
    }

    func testFailureRateOutsideZeroToOneIsRejected() {
        assertRejected(flags: [.demoFailureRate: "1.5"], setting: .demoFailureRate)
    }

    func testNegativeLatencyIsRejected() {
        assertRejected(flags: [.demoLatencyMs: "-1"], setting: .demoLatencyMs)
    }

    func testZeroHeaderTimeoutIsRejected() {
        assertRejected(flags: [.headerTimeout: "0"], setting: .headerTimeout)
    }

    func testHardeningAndUpstreamTimingSettingsHaveTheirDefaults() throws {
        let configuration = try ServiceConfiguration.resolve(flags: [:], environment: [:])
        XCTAssertEqual(configuration.bodyTimeout, .seconds(30))
        XCTAssertNil(configuration.maxConnectionsPerClient)
        XCTAssertEqual(configuration.upstreamTimeout, .seconds(5))
        XCTAssertEqual(configuration.upstreamRetries, 6)
        XCTAssertEqual(configuration.upstreamDeadline, .seconds(10))
    }

    func testHardeningAndUpstreamTimingFlagsAreRead() throws {
        let configuration = try ServiceConfiguration.resolve(flags: [
            .bodyTimeout: "2.5", .maxConnectionsPerClient: "8", .upstreamTimeout: "0.25", .upstreamRetries: "0", .upstreamDeadline: "1.5",
        ], environment: [:])
        XCTAssertEqual(configuration.bodyTimeout, .milliseconds(2500))
        XCTAssertEqual(configuration.maxConnectionsPerClient, 8)
        XCTAssertEqual(configuration.upstreamTimeout, .milliseconds(250))
        XCTAssertEqual(configuration.upstreamRetries, 0)
        XCTAssertEqual(configuration.upstreamDeadline, .milliseconds(1500))
        XCTAssertEqual(ConfigurationSetting.maxConnectionsPerClient.flag, "--max-connections-per-client")
        XCTAssertEqual(ConfigurationSetting.upstreamDeadline.environmentVariable, "UPSTREAM_DEADLINE")
    }

    func testZeroConnectionsPerClientMeansNoCap() throws {
        XCTAssertNil(try ServiceConfiguration.resolve(flags: [.maxConnectionsPerClient: "0"], environment: [:]).maxConnectionsPerClient)
    }

    func testBadHardeningAndUpstreamTimingValuesAreRejectedNamingTheFlag() {
        assertRejected(flags: [.bodyTimeout: "0"], setting: .bodyTimeout,
                       message: "error: invalid value \"0\" for --body-timeout: expected seconds greater than 0, at most 86400, e.g. 2.5")
        assertRejected(flags: [.maxConnectionsPerClient: "-1"], setting: .maxConnectionsPerClient)
        assertRejected(flags: [.upstreamTimeout: "soon"], setting: .upstreamTimeout)
        assertRejected(flags: [.upstreamRetries: "101"], setting: .upstreamRetries,
                       message: "error: invalid value \"101\" for --upstream-retries: expected an integer from 0 to 100")
        assertRejected(flags: [.upstreamDeadline: "0"], setting: .upstreamDeadline)
    }

    func testMaxConnectionsAboveTheOpenFilesLimitIsLoweredWithALineSayingSo() {
        let clamped = ConnectionCeiling.clamp(16_384, openFilesLimit: 1024)
        XCTAssertEqual(clamped.maxConnections, 768)
        XCTAssertEqual(clamped.warning, "--max-connections 16384 lowered to 768: the open-files limit is 1024 (ulimit -n) and 256 descriptors stay for the service itself; raise the limit to allow more connections")
        XCTAssertEqual(ConnectionCeiling.clamp(500, openFilesLimit: 1024).maxConnections, 500)
        XCTAssertNil(ConnectionCeiling.clamp(500, openFilesLimit: 1024).warning)
        XCTAssertEqual(ConnectionCeiling.clamp(100, openFilesLimit: 64).maxConnections, 32)
        XCTAssertNil(ConnectionCeiling.clamp(100, openFilesLimit: -1).warning, "an unreadable limit changes nothing")
    }

    func testNonHTTPUpstreamIsRejected() {
        assertRejected(flags: [.upstream: "ftp://example.com"], setting: .upstream)
    }

    func testUnknownLogFormatIsRejectedListingTheChoices() {
        assertRejected(flags: [.logFormat: "xml"], setting: .logFormat, message: "error: invalid value \"xml\" for --log-format: expected one of json, text")
    }

    func testUnknownLogLevelIsRejected() {
        assertRejected(flags: [.logLevel: "loud"], setting: .logLevel)
    }

    func testCertificateWithoutKeyIsRejected() throws {
        let certificate = try temporaryFile(contents: "pem")
        assertRejected(flags: [.tlsCert: certificate], setting: .tlsKey)
    }

    func testUnreadableCertificateIsRejectedNamingTheFlag() throws {
        let key = try temporaryFile(contents: "pem")
        assertRejected(flags: [.tlsCert: "/nonexistent/cert.pem", .tlsKey: key], setting: .tlsCert,
                       message: "error: invalid value \"/nonexistent/cert.pem\" for --tls-cert: no such file")
    }

    func testReadableCertificateAndKeyEnableTLS() throws {
        let certificate = try temporaryFile(contents: "cert")
        let key = try temporaryFile(contents: "key")
        let configuration = try ServiceConfiguration.resolve(flags: [.tlsCert: certificate, .tlsKey: key], environment: [:])
        XCTAssertEqual(configuration.tls, ServiceConfiguration.TLSFiles(certificate: certificate, privateKey: key))
    }

    func testBracketedIPv6HostIsUnwrapped() throws {
        let configuration = try ServiceConfiguration.resolve(flags: [.host: "[::1]"], environment: [:])
        XCTAssertEqual(configuration.host, "::1")
    }

    func testHostWithSpacesIsRejected() {
        assertRejected(flags: [.host: "local host"], setting: .host)
    }

    // MARK: - Helpers

    func testCORSOriginsDefaultToNone() throws {
        XCTAssertEqual(try ServiceConfiguration.resolve(flags: [:], environment: [:]).corsOrigins, CORSOrigins.none)
    }

    func testCORSOriginsComeFromTheEnvironmentAsABrowserSerializesThem() throws {
        let configuration = try ServiceConfiguration.resolve(flags: [:], environment: ["CORS_ORIGINS": "HTTPS://App.Example:443, http://localhost:3000"])
        XCTAssertEqual(configuration.corsOrigins, .list(["https://app.example", "http://localhost:3000"]))
    }

    func testCORSOriginsStarAllowsAny() throws {
        XCTAssertEqual(try ServiceConfiguration.resolve(flags: [.corsOrigins: "*"], environment: [:]).corsOrigins, .any)
    }

    func testMalformedCORSOriginsAreRejectedNamingTheFlag() {
        for value in ["app.example", "ftp://app.example", "https://app.example/", "https://app.example,", "*,https://a.example", "http://:80", "http://a.example:99999"] {
            assertRejected(flags: [.corsOrigins: value], setting: .corsOrigins)
        }
    }

    private func assertRejected(
        flags: [ConfigurationSetting: String] = [:], environment: [String: String] = [:],
        setting: ConfigurationSetting, message: String? = nil, file: StaticString = #filePath, line: UInt = #line
    ) {
        do {
            let configuration = try ServiceConfiguration.resolve(flags: flags, environment: environment)
            XCTFail("accepted: \(configuration)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.setting, setting, file: file, line: line)
            XCTAssertFalse(error.description.contains("\n"), "one line", file: file, line: line)
            XCTAssertTrue(error.description.contains(setting.flag), error.description, file: file, line: line)
            if let message { XCTAssertEqual(error.description, message, file: file, line: line) }
        }
    }

    private func temporaryFile(contents: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("svc-config-\(UUID().uuidString).pem")
        try contents.write(to: url, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }
}

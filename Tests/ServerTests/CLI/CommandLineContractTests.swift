// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import NetCore
import XCTest
@testable import Server
import HTTP
import HTTPTestSupport

/// The CLI contract of DESIGN.md, checked on the real executable.
final class CommandLineContractTests: XCTestCase {
    func testInvalidFlagValueExitsNonZeroWithOneLineNamingTheFlag() throws {
        let service = try ServiceProcess(["serve", "--port", "abc"])
        XCTAssertEqual(service.exitStatus(), 64)
        let lines = service.errorOutput.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, service.errorOutput)
        XCTAssertTrue(lines.first?.contains("--port") ?? false, service.errorOutput)
    }

    func testInvalidEnvironmentValueNamesTheFlagAndTheVariable() throws {
        let service = try ServiceProcess(["serve"], environment: ["LOG_FORMAT": "xml"])
        XCTAssertEqual(service.exitStatus(), 64)
        XCTAssertEqual(service.errorOutput, "error: invalid value \"xml\" for --log-format (from LOG_FORMAT): expected one of json, text\n")
    }

    func testMalformedCORSOriginsExitWithOneLineNamingTheFlag() throws {
        let service = try ServiceProcess(["serve"], environment: ["CORS_ORIGINS": "https://app.example/path"])
        XCTAssertEqual(service.exitStatus(), 64)
        XCTAssertEqual(service.errorOutput.split(separator: "\n").count, 1, service.errorOutput)
        XCTAssertTrue(service.errorOutput.contains("--cors-origins (from CORS_ORIGINS)"), service.errorOutput)
    }

    // ArgumentParser reads `-1` after an option as a short flag, so `--port -1` used to say
    // "Missing value for '--port'" while `--port=-1` named the range.
    func testANegativePortAfterASpaceNamesTheRangeAsWithAnEqualsSign() throws {
        let spaced = try ServiceProcess(["serve", "--port", "-1"])
        let joined = try ServiceProcess(["serve", "--port=-1"])
        XCTAssertEqual(spaced.exitStatus(), 64)
        XCTAssertEqual(joined.exitStatus(), 64)
        XCTAssertEqual(spaced.errorOutput, joined.errorOutput)
        XCTAssertEqual(spaced.errorOutput, "error: invalid value \"-1\" for --port: expected an integer from 0 to 65535\n")
    }

    func testANegativeFractionAfterASpaceReachesTheOptionsOwnCheck() throws {
        let service = try ServiceProcess(["serve", "--demo-failure-rate", "-0.5"])
        XCTAssertEqual(service.exitStatus(), 64)
        XCTAssertTrue(service.errorOutput.hasPrefix("error: invalid value \"-0.5\" for --demo-failure-rate:"), service.errorOutput)
    }

    func testAnUnresolvableHostSaysTheLookupFailedWithoutAnErrno() throws {
        let service = try ServiceProcess(["serve", "--host", "999.1.1.1", "--port", "0"])
        XCTAssertEqual(service.exitStatus(), 64)
        XCTAssertTrue(service.errorOutput.hasPrefix("error: invalid value \"999.1.1.1\" for --host: "), service.errorOutput)
        XCTAssertTrue(service.errorOutput.contains("name lookup failed"), service.errorOutput)
        XCTAssertFalse(service.errorOutput.contains("errno"), service.errorOutput)
        XCTAssertFalse(service.errorOutput.contains("Invalid argument"), service.errorOutput)
    }

    func testPortInUseExitsNonZeroNamingThePortFlag() throws {
        let taken = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { taken.close() }
        let port = try XCTUnwrap(taken.localAddress()?.port)
        let service = try ServiceProcess(["serve", "--host", "127.0.0.1", "--port", String(port)])
        XCTAssertEqual(service.exitStatus(), 64)
        XCTAssertTrue(service.errorOutput.hasPrefix("error: invalid value \"\(port)\" for --port: port already in use"), service.errorOutput)
        XCTAssertEqual(service.errorOutput.split(separator: "\n").count, 1)
    }

    func testUnreadableCertificateExitsNonZeroNamingTheFlag() throws {
        let service = try ServiceProcess(["serve", "--tls-cert", "/nonexistent/cert.pem", "--tls-key", "/nonexistent/key.pem"])
        XCTAssertEqual(service.exitStatus(), 64)
        XCTAssertTrue(service.errorOutput.contains("--tls-cert"), service.errorOutput)
    }

    func testServeLogsItsAddressFirstAnswersHealthcheckAndExitsZeroOnSIGTERM() throws {
        let service = try ServiceProcess(["--host", "127.0.0.1", "--port", "0", "--log-format", "json"])
        let first = try XCTUnwrap(service.firstLine(), service.errorOutput)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        let message = try XCTUnwrap(json["message"] as? String)
        XCTAssertTrue(message.hasPrefix("listening on http://127.0.0.1:"), message)
        let port = try XCTUnwrap(message.split(separator: ":").last.map(String.init))

        let healthy = try ServiceProcess(["healthcheck", "--url", "http://127.0.0.1:\(port)/health"])
        XCTAssertEqual(healthy.exitStatus(), 0, healthy.output)

        service.signal(SIGTERM)
        XCTAssertEqual(service.exitStatus(), 0)
        XCTAssertTrue(service.output.contains("\"message\":\"stopped\""), service.output)
    }

    func testHealthcheckFailsWhenNothingAnswers() throws {
        let closed = try Socket.listen(host: "127.0.0.1", port: 0)
        let port = try XCTUnwrap(closed.localAddress()?.port)
        closed.close()
        let check = try ServiceProcess(["healthcheck", "--url", "http://127.0.0.1:\(port)/health", "--timeout", "2"])
        XCTAssertEqual(check.exitStatus(), 1)
    }

    func testDemoUpstreamServesGitHubShapedUsers() throws {
        let service = try ServiceProcess(["demo-upstream", "--host", "127.0.0.1", "--port", "0", "--demo-users", "5"])
        let first = try XCTUnwrap(service.firstLine(), service.errorOutput)
        let port = try XCTUnwrap(first.split(separator: " ").first { $0.hasPrefix("http://") }.flatMap { $0.split(separator: ":").last }.flatMap { Int($0) })
        let client = try RawHTTPClient(port: port)
        try client.send("GET /users?per_page=2 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(response.bodyText.contains("\"login\""), response.bodyText)
        service.signal(SIGINT)
        XCTAssertEqual(service.exitStatus(), 0)
    }
}

extension CommandLineContractTests {
    func testHealthcheckDefaultsToTheServicesOwnPortAndScheme() {
        XCTAssertEqual(HealthcheckCommand.defaultURL(environment: [:]), "http://127.0.0.1:8080/health")
        XCTAssertEqual(HealthcheckCommand.defaultURL(environment: ["PORT": "9000"]), "http://127.0.0.1:9000/health")
        XCTAssertEqual(HealthcheckCommand.defaultURL(environment: ["PORT": "9443", "TLS_CERT": "/c.pem"]), "https://127.0.0.1:9443/health")
    }
}

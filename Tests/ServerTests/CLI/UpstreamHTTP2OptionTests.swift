// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import XCTest
@testable import Server

/// `--upstream-http2 auto|prior-knowledge|off` / `UPSTREAM_HTTP2`.
final class UpstreamHTTP2OptionTests: XCTestCase {
    func testUpstreamHTTP2IsAutoByDefault() throws {
        XCTAssertEqual(try ServiceConfiguration.resolve(flags: [:], environment: [:]).upstreamHTTP2, .auto)
    }

    func testTheFlagAndTheEnvironmentChooseTheMode() throws {
        XCTAssertEqual(try ServiceConfiguration.resolve(flags: [.upstreamHttp2: "prior-knowledge"], environment: [:]).upstreamHTTP2, .priorKnowledge)
        XCTAssertEqual(try ServiceConfiguration.resolve(flags: [:], environment: ["UPSTREAM_HTTP2": "off"]).upstreamHTTP2, .off)
        XCTAssertEqual(try ServiceConfiguration.resolve(flags: [.upstreamHttp2: "auto"], environment: ["UPSTREAM_HTTP2": "off"]).upstreamHTTP2, .auto)
        XCTAssertEqual(ConfigurationSetting.upstreamHttp2.flag, "--upstream-http2")
        XCTAssertEqual(ConfigurationSetting.upstreamHttp2.environmentVariable, "UPSTREAM_HTTP2")
    }

    func testABadValueIsAStartErrorNamingTheChoices() {
        XCTAssertThrowsError(try ServiceConfiguration.resolve(flags: [.upstreamHttp2: "h2"], environment: [:])) { error in
            let text = (error as? ConfigurationError)?.description ?? "\(error)"
            XCTAssertTrue(text.contains("--upstream-http2"), text)
            XCTAssertTrue(text.contains("auto, prior-knowledge, off"), text)
        }
    }

    func testTheServiceRefusesToStartWithABadValue() throws {
        let service = try ServiceProcess(["serve", "--host", "127.0.0.1", "--port", "0", "--upstream-http2", "sometimes"])
        XCTAssertNotEqual(service.exitStatus(), 0)
        XCTAssertTrue(service.errorOutput.contains("--upstream-http2"), service.errorOutput)
    }

    func testTheHelpNamesTheOptionAndItsVariable() throws {
        let service = try ServiceProcess(["serve", "--help"])
        XCTAssertEqual(service.exitStatus(), 0)
        let help = service.output.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        XCTAssertTrue(help.contains("--upstream-http2"), help)
        XCTAssertTrue(help.contains("[env: UPSTREAM_HTTP2]"), help)
    }

    func testTheFirstLogLineStatesTheUpstreamProtocol() {
        var configuration = ServiceConfiguration()
        configuration.upstreamHTTP2 = .priorKnowledge
        XCTAssertEqual(EffectiveConfiguration(configuration: configuration).metadata["upstream_http2"], "prior-knowledge (h2 by ALPN over TLS, h2c in cleartext)")
    }
}

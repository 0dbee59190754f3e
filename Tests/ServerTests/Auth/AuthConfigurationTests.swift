// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import Server

/// The `--auth-*` and `--trusted-proxies` flags: what they accept and the one line a bad value gets.
final class AuthConfigurationTests: XCTestCase {
    private let secret = "0123456789abcdef0123456789abcdef-long-enough"

    private func resolve(_ flags: [ConfigurationSetting: String], environment: [String: String] = [:]) throws(ConfigurationError) -> ServiceConfiguration {
        try ServiceConfiguration.resolve(flags: flags, environment: environment)
    }

    private func failure(_ flags: [ConfigurationSetting: String]) -> String {
        do {
            _ = try resolve(flags)
            return "no error"
        } catch {
            return error.description
        }
    }

    func testAccessControlIsOffByDefault() throws {
        let configuration = try resolve([:])
        XCTAssertNil(configuration.auth)
        XCTAssertEqual(configuration.trustedProxies, .none)
    }

    func testASecretWithProtectedAreasAndCookie() throws {
        let auth = try XCTUnwrap(resolve([.authJwtSecret: secret, .authProtect: "events,metrics", .authCookie: "sstoken", .authAudience: "svc", .authIssuer: "https://id.example"]).auth)
        XCTAssertEqual(auth.key, .secret(secret))
        XCTAssertEqual(auth.protected, [.events, .metrics])
        XCTAssertEqual(auth.cookie, "sstoken")
        XCTAssertEqual(auth.audience, "svc")
        XCTAssertEqual(auth.issuer, "https://id.example")
    }

    func testAllProtectsEveryAreaAndNoneNothing() throws {
        XCTAssertEqual(try resolve([.authJwtSecret: secret, .authProtect: "all"]).auth?.protected, Set(ProtectedArea.allCases))
        XCTAssertEqual(try resolve([.authJwtSecret: secret, .authProtect: "none"]).auth?.protected, [])
    }

    func testAKeyAloneProtectsEveryArea() throws {
        XCTAssertEqual(try resolve([.authJwtSecret: secret]).auth?.protected, Set(ProtectedArea.allCases))
        XCTAssertEqual(try resolve([:], environment: ["AUTH_JWT_SECRET": secret]).auth?.protected, Set(ProtectedArea.allCases))
    }

    func testASecretInTheEnvironmentAloneKeepsTheUsersBehindATokenOnTheWire() throws {
        let configuration = try resolve([.host: "127.0.0.1", .port: "0"], environment: ["AUTH_JWT_SECRET": secret])
        let app = try AppHarness(self) { $0 = configuration }
        XCTAssertEqual(try app.get("/users?limit=1").status, 401)
        XCTAssertEqual(try app.get("/health").status, 200, "health stays open for probes")
    }

    func testThePublicKeyIsReadOnceWhenTheConfigurationIsResolved() throws {
        let mint = try TokenMint()
        let file = try mint.ecKeyPair().publicKey
        let configuration = try resolve([.host: "127.0.0.1", .port: "0", .authJwtPublicKey: file])
        guard case .publicKey(let pem, file)? = configuration.auth?.key else { return XCTFail("\(String(describing: configuration.auth?.key))") }
        XCTAssertEqual(pem, Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        try FileManager.default.removeItem(atPath: file)
        let app = try AppHarness(self) { $0 = configuration }
        XCTAssertEqual(try app.get("/users?limit=1").status, 401, "started protected with the key it read")
    }

    func testAKeyThatCannotBeMadeIntoAVerifierStopsTheStart() throws {
        var configuration = try resolve([.host: "127.0.0.1", .port: "0"])
        configuration.auth = AuthSettings(key: .publicKeyFile("/nonexistent/key.pem"), protected: [.users])
        let app = Application(configuration: configuration, logger: .init(label: "test"))
        XCTAssertThrowsError(try app.start()) { error in
            XCTAssertTrue("\(error)".contains("--auth-jwt-public-key") && "\(error)".contains("not starting without the access control"), "\(error)")
        }
    }

    func testTheFirstLogLineStatesWhatIsProtectedLimitedSharedAndEncrypted() throws {
        let configuration = try resolve([.host: "127.0.0.1", .port: "0", .authJwtSecret: secret, .authProtect: "users", .clientRequestRate: "20/s"])
        let app = try AppHarness(self) { $0 = configuration }
        let first = try XCTUnwrap(app.logLines().first)
        XCTAssertEqual(first["auth"] as? String, "protecting users with an HS256 secret")
        XCTAssertEqual(first["rate_limits"] as? String, "requests 20/s per client")
        XCTAssertEqual(first["redis"] as? String, "none (events, cache and budgets in this process)")
        XCTAssertEqual(first["tls"] as? String, "off")
        XCTAssertEqual(first["http2"] as? String, "h2c (prior knowledge)")
        XCTAssertFalse(app.logLines().contains { "\($0)".contains(secret) }, "the secret is never logged")
    }

    func testTheSecretMayComeFromTheEnvironment() throws {
        XCTAssertEqual(try resolve([:], environment: ["AUTH_JWT_SECRET": secret, "AUTH_PROTECT": "users"]).auth?.protected, [.users])
    }

    func testAShortSecretIsRefusedWithoutEchoingIt() {
        let line = failure([.authJwtSecret: "short-secret"])
        XCTAssertTrue(line.contains("--auth-jwt-secret") && line.contains("at least 32 bytes"), line)
        XCTAssertFalse(line.contains("short-secret"), line)
    }

    func testProtectingWithoutAKeyIsRefused() {
        let line = failure([.authProtect: "events"])
        XCTAssertTrue(line.contains("--auth-protect") && line.contains("needs --auth-jwt-secret or --auth-jwt-public-key"), line)
    }

    func testAnUnknownAreaIsRefused() {
        XCTAssertTrue(failure([.authJwtSecret: secret, .authProtect: "events,admin"]).contains("expected events, metrics, users"))
    }

    func testASecretAndAPublicKeyTogetherAreRefused() throws {
        let mint = try TokenMint()
        let line = failure([.authJwtSecret: secret, .authJwtPublicKey: try mint.ecKeyPair().publicKey])
        XCTAssertTrue(line.contains("not both"), line)
    }

    func testAPublicKeyFileThatIsNoKeyIsRefused() throws {
        let mint = try TokenMint()
        let line = failure([.authJwtPublicKey: try mint.ecKeyPair().privateKey.replacingOccurrences(of: ".key", with: ".missing")])
        XCTAssertTrue(line.contains("no such file"), line)
        let notAKey = mint.directory.appendingPathComponent("readme.txt")
        try Data("hello".utf8).write(to: notAKey)
        XCTAssertTrue(failure([.authJwtPublicKey: notAKey.path]).contains("not a PEM public key"))
    }

    func testAShortRSAKeyIsRefused() throws {
        let mint = try TokenMint()
        let line = failure([.authJwtPublicKey: try mint.rsaKeyPair(bits: 1024).publicKey])
        XCTAssertTrue(line.contains("RSA key of 1024 bits"), line)
    }

    func testACookieNeedsListedCORSOriginsNotStar() {
        let line = failure([.authJwtSecret: secret, .authCookie: "sstoken", .corsOrigins: "*"])
        XCTAssertTrue(line.contains("--cors-origins") && line.contains("cannot be used with --auth-cookie"), line)
    }

    func testABadCookieNameIsRefused() {
        XCTAssertTrue(failure([.authJwtSecret: secret, .authCookie: "a b"]).contains("expected a cookie name"))
    }

    func testTrustedProxiesTakeAddressesAndBlocksOfBothFamilies() throws {
        let proxies = try resolve([.trustedProxies: "10.0.0.0/8, 127.0.0.1,fd00::/8"]).trustedProxies
        XCTAssertEqual(proxies.blocks.map(\.description), ["10.0.0.0/8", "127.0.0.1/32", "fd00::/8"])
        XCTAssertTrue(failure([.trustedProxies: "10.0.0.0/33"]).contains("10.0.0.0/33 is not an IP address or CIDR block"))
        XCTAssertTrue(failure([.trustedProxies: "proxy.internal"]).contains("--trusted-proxies"))
    }
}

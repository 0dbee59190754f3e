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

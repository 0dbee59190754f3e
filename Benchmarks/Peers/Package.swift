// swift-tools-version:6.0
// The peers our server is measured against (issues 3, 12 and 26): Hummingbird 2 (SwiftNIO), FlyingFox,
// Hummingbird + AsyncHTTPClient for the main job, and Hummingbird's HTTP/2 (HummingbirdHTTP2). A package of their own, apart from Benchmarks/ (which
// depends on the root package for Streams): the root's target names and the peers' dependency graph
// then never meet (swift-service-lifecycle, a Hummingbird dependency, had a target named like one of
// ours). Build release only; run by scripts/bench-server and scripts/bench-users, never by `swift test`.
import PackageDescription

let package = Package(
    name: "Peers",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
        // HummingbirdHTTP2's TLS and HTTP/2, pinned to the mirror's versions so every run measures the same.
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2", exact: "1.46.0"),
    ],
    targets: [
        // The peers' command line, the /health body and the /ticks and /events clocks they share.
        .target(name: "PeerSupport"),
        // What the Hummingbird peers share: their /health route.
        .target(
            name: "HummingbirdPeerSupport",
            dependencies: ["PeerSupport", .product(name: "Hummingbird", package: "hummingbird")]
        ),
        .executableTarget(
            name: "hummingbird-server",
            dependencies: ["PeerSupport", "HummingbirdPeerSupport", .product(name: "Hummingbird", package: "hummingbird")]
        ),
        // The main-job peer of `/users`: Hummingbird 2 + AsyncHTTPClient + swift-crypto's SHA-256.
        .executableTarget(
            name: "hummingbird-users",
            dependencies: [
                "PeerSupport",
                "HummingbirdPeerSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The HTTP/2 peer of scripts/bench-h2: TLS with ALPN, or h2c with prior knowledge.
        .executableTarget(
            name: "hummingbird-h2-server",
            dependencies: [
                "PeerSupport",
                "HummingbirdPeerSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ]
        ),
        .executableTarget(
            name: "flyingfox-server",
            dependencies: ["PeerSupport", .product(name: "FlyingFox", package: "FlyingFox")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

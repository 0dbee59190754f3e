// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "StreamService",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Streams", targets: ["Streams"]),
        .library(name: "NetCore", targets: ["NetCore"]),
        .library(name: "Redis", targets: ["Redis"]),
        .executable(name: "stream-service", targets: ["Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // Reactive library: Foundation and Dispatch only.
        .target(name: "Streams"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", providers: [.apt(["libssl-dev"])]),
        // Sockets, TLS and gzip shared by the server and the upstream client.
        .target(name: "NetCore", dependencies: ["CZlib", "COpenSSL"]),
        .target(name: "Domain", dependencies: ["Streams", "NetCore"]),
        // RESP2 client on NetCore sockets: the shared event feed and cache tier of scaled-out replicas.
        .target(name: "Redis", dependencies: ["NetCore"]),
        .executableTarget(
            name: "Server",
            dependencies: [
                "Streams", "Domain", "NetCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // Compiled into the binary, so /openapi.yaml needs no file at run time (e.g. in the container).
            resources: [.embedInCode("App/openapi.yaml")]
        ),
        .testTarget(name: "StreamsTests", dependencies: ["Streams"]),
        .testTarget(name: "DomainTests", dependencies: ["Domain", "Streams", "NetCore"]),
        // Starts and stops real redis-server processes for the tests that need one.
        .target(name: "RedisTestSupport", dependencies: ["NetCore"], path: "Tests/RedisTestSupport"),
        .testTarget(name: "RedisTests", dependencies: ["Redis", "RedisTestSupport", "NetCore"]),
        .testTarget(name: "ServerTests", dependencies: ["Server", "Domain", "Streams", "NetCore"]),
    ],
    swiftLanguageModes: [.v6]
)

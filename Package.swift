// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "StreamService",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Streams", targets: ["Streams"]),
        // Virtual-time test kit for Streams pipelines (as RxTest is to RxSwift).
        .library(name: "StreamsTesting", targets: ["StreamsTesting"]),
        .library(name: "NetCore", targets: ["NetCore"]),
        .library(name: "HTTP", targets: ["HTTP"]),
        .executable(name: "stream-service", targets: ["Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // The one lock, once-flag and Duration conversions every module shares (`package` access),
        // as NIOConcurrencyHelpers is to swift-nio.
        .target(name: "ConcurrencyHelpers"),
        // Reactive library: Foundation and Dispatch only.
        .target(name: "Streams", dependencies: ["ConcurrencyHelpers"]),
        .target(name: "StreamsTesting", dependencies: ["ConcurrencyHelpers", "Streams"]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", providers: [.apt(["libssl-dev"])]),
        // Sockets, TLS and gzip shared by the server and the upstream client.
        // epoll and eventfd headers for NetCore's Linux event loop (module map only).
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
        .target(name: "NetCore", dependencies: ["ConcurrencyHelpers", "CZlib", "COpenSSL", "CEpoll"]),
        // HTTP/1.1 library, server and client: parsing, routing, response writing, SSE, event-loop scheduling.
        .target(name: "HTTP", dependencies: ["ConcurrencyHelpers", "Streams", "NetCore", .product(name: "CoreMetrics", package: "swift-metrics")]),
        .target(name: "Domain", dependencies: ["ConcurrencyHelpers", "Streams", "NetCore", "HTTP", .product(name: "CoreMetrics", package: "swift-metrics")]),
        .executableTarget(
            name: "Server",
            dependencies: [
                "ConcurrencyHelpers", "Streams", "Domain", "NetCore", "HTTP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // Compiled into the binary, so /openapi.yaml needs no file at run time (e.g. in the container).
            resources: [
                .embedInCode("App/openapi.yaml"),
                // The page at `/`: plain HTML, CSS and JavaScript, no build step.
                .embedInCode("Page/index.html"),
                .embedInCode("Page/page.css"),
                .embedInCode("Page/page.js"),
            ]
        ),
        .testTarget(name: "StreamsTests", dependencies: ["ConcurrencyHelpers", "Streams", "StreamsTesting"]),
        .testTarget(name: "DomainTests", dependencies: ["Domain", "ConcurrencyHelpers", "Streams", "StreamsTesting", "NetCore", "HTTP", .product(name: "MetricsTestKit", package: "swift-metrics")]),
        // Raw-socket and SSE clients, test certificates: shared by the HTTP and Server tests.
        .target(name: "HTTPTestSupport", dependencies: ["HTTP", "NetCore", "ConcurrencyHelpers"], path: "Tests/HTTPTestSupport"),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "HTTPTestSupport", "ConcurrencyHelpers", "Streams", "NetCore", .product(name: "MetricsTestKit", package: "swift-metrics")]),
        .testTarget(
            name: "ServerTests",
            dependencies: ["Server", "Domain", "HTTP", "HTTPTestSupport", "ConcurrencyHelpers", "Streams", "NetCore", .product(name: "MetricsTestKit", package: "swift-metrics"), .product(name: "Prometheus", package: "swift-prometheus")],
            // An extract of GitHub's published REST schemas the demo upstream is checked against.
            resources: [.copy("Routes/Resources")]),
    ],
    swiftLanguageModes: [.v6]
)

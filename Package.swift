// swift-tools-version:6.1
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
        // Runs a Router in process, with no socket, for unit tests of routes (as HummingbirdTesting).
        .library(name: "HTTPTesting", targets: ["HTTPTesting"]),
        .library(name: "Redis", targets: ["Redis"]),
        // The OpenTelemetry tracer and OTLP/HTTP exporter (for the Benchmarks package's exporter bench).
        .library(name: "Telemetry", targets: ["Telemetry"]),
        .executable(name: "stream-service", targets: ["Server"]),
    ],
    // The executable's own dependencies (argument parsing, logging, Prometheus) come with the
    // "Service" trait, on by default. A package that uses only the libraries depends on this one
    // with `traits: []`, and those dependencies leave its resolution (SwiftPM resolves the
    // dependencies of every product's targets, the executable's included, unless a trait guards
    // them); what remains is swift-metrics, whose CoreMetrics `HTTP` records through.
    traits: [
        .trait(name: "Service", description: "The stream-service executable's own dependencies: argument parsing, logging, Prometheus."),
        .default(enabledTraits: ["Service"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // The ecosystem's tracing API (`Tracer`, `ServiceContext`; NIO-free): `Telemetry` implements it; spans are
        // placed through it, so libraries instrumented for it join the same traces.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // `swift package generate-documentation` for the Streams and StreamsTesting catalogues
        // (scripts/docs); a command plugin only, nothing of it is linked into a product.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The one lock, once-flag, thread stripes, coarse clock and Duration conversions every module
        // shares (`package` access), as NIOConcurrencyHelpers is to swift-nio (not named ConcurrencyHelpers:
        // swift-service-lifecycle, which Hummingbird brings into the Benchmarks package, has a target of that name).
        .target(name: "StreamServiceConcurrency"),
        // Numbers as ASCII digits written in place: the one digit writer of HTTP heads, JSON, request
        // ids, timestamps and pipeline details; `ByteWords`, eight bytes tested at once for the HTTP
        // parser and the JSON scan (`package` access).
        .target(name: "StreamServiceText"),
        // Reactive library: Foundation and Dispatch, and swift-distributed-tracing's Instrumentation (ServiceContext,
        // no further dependencies) so a subscription's context crosses threads and schedulers.
        // Release builds of the service pass -cross-module-optimization on the command line
        // (scripts/lib/release-build.sh, the Dockerfile), not here: unsafeFlags would make every
        // product over Streams unusable as a versioned dependency.
        // Instrumentation (swift-distributed-tracing's ServiceContext, no further dependencies): the
        // context a subscription carries across threads (`ContextPropagation`).
        .target(name: "Streams", dependencies: ["StreamServiceConcurrency", .product(name: "Instrumentation", package: "swift-distributed-tracing")]),
        .target(name: "StreamsTesting", dependencies: ["StreamServiceConcurrency", "Streams"]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", providers: [.apt(["libssl-dev"])]),
        // Sockets, TLS and gzip shared by the server and the upstream client.
        // epoll and eventfd headers for NetCore's Linux event loop (module map only).
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
        // The gzip CRC-32 folded with carry-less multiplies (x86-64 with PCLMULQDQ): zlib 1.2's
        // table-driven `crc32` took ~3.9 instructions a byte, 4 % of a `/users` request.
        .target(name: "CCRC32"),
        .target(name: "NetCore", dependencies: ["StreamServiceConcurrency", "CZlib", "COpenSSL", "CEpoll", "CCRC32"]),
        // The JSON writer (`JSONOutput`, `JSONWritable`) and reader (`JSONReader`, `JSONScan`) of
        // Domain's answers and upstream pages and the server's tokens; HTTP does not use it.
        .target(name: "StreamServiceJSON", dependencies: ["StreamServiceText", "NetCore"]),
        // HTTP/1.1 and HTTP/2 server, HTTP/1.1 client: parsing, routing, response writing, SSE, event-loop scheduling.
        .target(name: "HTTP", dependencies: ["StreamServiceConcurrency", "StreamServiceText", "Streams", "NetCore", .product(name: "CoreMetrics", package: "swift-metrics"), .product(name: "Tracing", package: "swift-distributed-tracing")]),
        .target(name: "HTTPTesting", dependencies: ["HTTP", "Streams"]),
        .target(name: "Domain", dependencies: ["StreamServiceConcurrency", "StreamServiceText", "StreamServiceJSON", "Streams", "NetCore", "HTTP", .product(name: "CoreMetrics", package: "swift-metrics"), .product(name: "Tracing", package: "swift-distributed-tracing")]),
        // The embedded GitHub-shaped upstream (`serve` without `--upstream`, `demo-upstream`):
        // Domain's models on the HTTP library's server, kept out of Domain, which is the domain.
        .target(name: "DemoUpstream", dependencies: ["StreamServiceConcurrency", "Streams", "NetCore", "HTTP", "Domain", .product(name: "CoreMetrics", package: "swift-metrics"), .product(name: "Tracing", package: "swift-distributed-tracing")]),
        // RESP2 client on NetCore sockets: the shared event feed and cache tier of scaled-out replicas.
        .target(name: "Redis", dependencies: ["StreamServiceConcurrency", "NetCore"]),
        // The OpenTelemetry tracer behind swift-distributed-tracing: W3C Trace Context, samplers, the batch
        // span processor and the OTLP/HTTP exporter on HTTP's client (not named Tracing: that is the API's module).
        .target(name: "Telemetry", dependencies: ["StreamServiceConcurrency", "StreamServiceJSON", "Streams", "NetCore", "HTTP", .product(name: "Tracing", package: "swift-distributed-tracing"), .product(name: "CoreMetrics", package: "swift-metrics")]),
        .executableTarget(
            name: "Server",
            dependencies: [
                "StreamServiceConcurrency", "StreamServiceJSON", "Streams", "Domain", "DemoUpstream", "NetCore", "HTTP", "Redis", "Telemetry",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Service"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Service"])),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Service"])),
            ],
            // Compiled into the binary, so /openapi.yaml needs no file at run time (e.g. in the container).
            resources: [
                .embedInCode("App/openapi.yaml"),
                // The page at `/`: plain HTML, CSS and JavaScript, no build step.
                .embedInCode("Page/index.html"),
                .embedInCode("Page/page.css"),
                .embedInCode("Page/page.js"),
                .embedInCode("Page/page-feed.js"),
            ]
        ),
        .testTarget(name: "StreamServiceTextTests", dependencies: ["StreamServiceText"]),
        .testTarget(name: "StreamServiceJSONTests", dependencies: ["StreamServiceJSON", "HTTPTestSupport"]),
        .testTarget(name: "StreamsTests", dependencies: ["StreamServiceConcurrency", "Streams", "StreamsTesting", .product(name: "Instrumentation", package: "swift-distributed-tracing")]),
        .testTarget(name: "DomainTests", dependencies: ["Domain", "DemoUpstream", "HTTPTestSupport", "TracingTestSupport", .product(name: "Tracing", package: "swift-distributed-tracing"), .product(name: "InMemoryTracing", package: "swift-distributed-tracing"), "StreamServiceConcurrency", "StreamServiceJSON", "Streams", "StreamsTesting", "NetCore", "HTTP", .product(name: "MetricsTestKit", package: "swift-metrics")]),
        .testTarget(name: "DemoUpstreamTests", dependencies: ["DemoUpstream", "Domain", "HTTPTestSupport", "StreamServiceConcurrency", "Streams", "StreamsTesting", "NetCore", "HTTP", .product(name: "MetricsTestKit", package: "swift-metrics")]),
        // Child processes (redis-server, redis-cli, openssl, stream-service) through posix_spawn, not Foundation.Process.
        .target(name: "ProcessTestSupport", dependencies: ["CProcessSpawn"], path: "Tests/ProcessTestSupport"),
        // pipe2 and posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module (no _GNU_SOURCE) hides.
        .target(name: "CProcessSpawn", path: "Tests/CProcessSpawn"),
        .testTarget(name: "ProcessTestSupportTests", dependencies: ["ProcessTestSupport"]),
        // Raw-socket and SSE clients, test certificates: shared by the HTTP and Server tests.
        .target(name: "HTTPTestSupport", dependencies: ["HTTP", "NetCore", "StreamServiceConcurrency", "ProcessTestSupport"], path: "Tests/HTTPTestSupport"),
        // The tracer, propagation, samplers, batching and the OTLP exporter against a real receiver (Tests/OTLPReceiver).
        .testTarget(name: "TelemetryTests", dependencies: ["Telemetry", "TracingTestSupport", "StreamServiceText", "HTTP", "HTTPTestSupport", "ProcessTestSupport", "StreamServiceConcurrency", "Streams", "StreamsTesting", "NetCore", .product(name: "Tracing", package: "swift-distributed-tracing"), .product(name: "MetricsTestKit", package: "swift-metrics")]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "HTTPTesting", "HTTPTestSupport", "StreamServiceConcurrency", "Streams", "StreamsTesting", "NetCore", "ProcessTestSupport", .product(name: "MetricsTestKit", package: "swift-metrics")]),
        // swift-distributed-tracing's InMemoryTracer speaking W3C Trace Context: the spans a test reads.
        .target(name: "TracingTestSupport", dependencies: [
            "Telemetry", "StreamServiceConcurrency", .product(name: "Tracing", package: "swift-distributed-tracing"), .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
        ], path: "Tests/TracingTestSupport"),
        // Starts, pauses and stops real redis-server processes for the tests that need one.
        .target(name: "RedisTestSupport", dependencies: ["NetCore", "ProcessTestSupport"], path: "Tests/RedisTestSupport"),
        .testTarget(name: "RedisTests", dependencies: ["Redis", "RedisTestSupport", "HTTPTestSupport", "StreamServiceConcurrency", "NetCore"]),
        .testTarget(
            name: "ServerTests",
            dependencies: ["Server", "Domain", "DemoUpstream", "HTTP", "HTTPTesting", "HTTPTestSupport", "StreamServiceConcurrency", "Streams", "StreamsTesting", "NetCore", "Redis", "RedisTestSupport", "ProcessTestSupport", "Telemetry", "TracingTestSupport", .product(name: "Tracing", package: "swift-distributed-tracing"), .product(name: "InMemoryTracing", package: "swift-distributed-tracing"), .product(name: "MetricsTestKit", package: "swift-metrics"), .product(name: "Prometheus", package: "swift-prometheus")],
            // An extract of GitHub's published REST schemas the demo upstream is checked against.
            resources: [.copy("Routes/Resources")]),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version:6.0
// Benchmarks live in their own package so the product never depends on the peers (OpenCombine here;
// the server peers, Hummingbird/SwiftNIO and FlyingFox, in Peers/). Build release only; nothing here
// runs under `swift test`.
import Foundation
import PackageDescription

// A path dependency's identity is its directory name, which depends on where the repository was cloned.
let rootPackageIdentity = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        // Timing, medians, peak RSS, child-process probes and the result table shared by every executable.
        .target(name: "BenchSupport"),
        .executableTarget(
            name: "streams-bench",
            dependencies: ["BenchSupport", .product(name: "Streams", package: rootPackageIdentity)]
        ),
        .executableTarget(
            name: "opencombine-bench",
            dependencies: ["BenchSupport", .product(name: "OpenCombine", package: "OpenCombine")]
        ),
        .executableTarget(name: "bench-table", dependencies: ["BenchSupport"]),
        // The OTLP exporter's throughput and its memory with the collector away (scripts/bench-otlp-export).
        .executableTarget(
            name: "otlp-export-bench",
            dependencies: [
                "BenchSupport", .product(name: "Telemetry", package: rootPackageIdentity), .product(name: "Streams", package: rootPackageIdentity),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

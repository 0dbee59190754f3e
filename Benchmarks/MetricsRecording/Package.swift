// swift-tools-version:6.0
// What recording a request's metrics costs the HTTP engine (issue 11): HTTPMetrics, which keeps each
// series' swift-metrics handles, against making the handles per request, both over swift-prometheus.
// A package of its own, apart from Benchmarks/: it builds only the HTTP library and the Prometheus
// backend it measures, not the peers. Build release only; run by scripts/bench-metrics, never by `swift test`.
import Foundation
import PackageDescription

// A path dependency's identity is its directory name, which depends on where the repository was cloned.
let rootPackageIdentity = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "MetricsBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        .executableTarget(
            name: "metrics-bench",
            dependencies: [
                .product(name: "HTTP", package: rootPackageIdentity),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

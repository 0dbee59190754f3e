// swift-tools-version:6.0
// Benchmarks live in their own package so the product never depends on the peers
// (OpenCombine, Hummingbird/SwiftNIO, FlyingFox). Build release only; nothing here runs under `swift test`.
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
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
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
        .executableTarget(
            name: "hummingbird-server",
            dependencies: ["BenchSupport", .product(name: "Hummingbird", package: "hummingbird")]
        ),
        // The main-job peer of `/users`: Hummingbird 2 + AsyncHTTPClient + swift-crypto's SHA-256.
        .executableTarget(
            name: "hummingbird-users",
            dependencies: [
                "BenchSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "flyingfox-server",
            dependencies: ["BenchSupport", .product(name: "FlyingFox", package: "FlyingFox")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version:6.1
// A service of another team's, built on the StreamService libraries alone: HTTP, Streams, and for
// its tests HTTPTesting and StreamsTesting. CI builds it and runs its tests (scripts/examples).
import Foundation
import PackageDescription

// In your own package write:
//     .package(url: "https://github.com/OWNER/StreamService", from: "0.1.0", traits: [])
// and `package: "StreamService"` below. Here it is this checkout, two folders up, whose package
// identity is that folder's name. `traits: []` leaves out the "Service" trait, the service
// executable's own dependencies: the resolution then holds swift-metrics alone.
let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let streamService = checkout.lastPathComponent

let package = Package(
    name: "HelloService",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: checkout.path, traits: [])],
    targets: [
        .target(name: "HelloRoutes", dependencies: [
            .product(name: "HTTP", package: streamService),
            .product(name: "Streams", package: streamService),
        ]),
        .executableTarget(name: "hello-service", dependencies: [
            "HelloRoutes",
            .product(name: "HTTP", package: streamService),
        ]),
        .testTarget(name: "HelloRoutesTests", dependencies: [
            "HelloRoutes",
            .product(name: "HTTP", package: streamService),
            .product(name: "HTTPTesting", package: streamService),
            .product(name: "Streams", package: streamService),
            .product(name: "StreamsTesting", package: streamService),
        ]),
    ],
    swiftLanguageModes: [.v6]
)

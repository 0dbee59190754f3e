// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

// What the limiter's files need from NetCore and HTTP, reduced to what the benchmark touches.

struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    let high: UInt64
    let low: UInt64
    static let v4Prefix: UInt64 = 0xFFFF_0000_0000

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }
    var description: String { "\(high):\(low)" }
}

struct HTTPHeaders {
    mutating func replaceOrAdd(name: String, value: String) {}
    mutating func add(name: String, value: String) {}
}

enum HTTPStatus { case tooManyRequests }

struct Response {
    static func problem(status: HTTPStatus, detail: String, instance: String, headers: HTTPHeaders) -> Response { Response() }
}

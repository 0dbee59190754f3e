// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// The OTel resource every exported span belongs to: `service.name`, `OTEL_RESOURCE_ATTRIBUTES`
/// and the `telemetry.sdk.*` attributes naming this SDK.
public struct Resource: Sendable, Equatable {
    /// The instrumentation scope and SDK name on every export.
    public static let scopeName = "stream-service"
    public static let sdkVersion = "1.0.0"

    /// In the order they are exported, keys unique.
    public private(set) var attributes: [(String, String)]

    /// `serviceName` wins over a `service.name` among `attributes` (as `OTEL_SERVICE_NAME` does
    /// over `OTEL_RESOURCE_ATTRIBUTES`).
    public init(serviceName: String, attributes: [(String, String)] = []) {
        var list: [(String, String)] = [("service.name", serviceName)]
        for (key, value) in attributes where !list.contains(where: { $0.0 == key }) { list.append((key, value)) }
        for (key, value) in [("telemetry.sdk.name", Self.scopeName), ("telemetry.sdk.language", "swift"), ("telemetry.sdk.version", Self.sdkVersion)]
        where !list.contains(where: { $0.0 == key }) {
            list.append((key, value))
        }
        self.attributes = list
    }

    public var serviceName: String { attributes[0].1 }

    public static func == (lhs: Resource, rhs: Resource) -> Bool {
        lhs.attributes.map(\.0) == rhs.attributes.map(\.0) && lhs.attributes.map(\.1) == rhs.attributes.map(\.1)
    }
}

/// `key=value,key=value` with percent-encoded values: the W3C Baggage form that
/// `OTEL_RESOURCE_ATTRIBUTES` and `OTEL_EXPORTER_OTLP_HEADERS` share.
enum KeyValueList {
    /// nil when a member has no `=`, an empty key, or a bad percent escape.
    static func parse(_ text: String) -> [(String, String)]? {
        var pairs: [(String, String)] = []
        for member in text.split(separator: ",", omittingEmptySubsequences: true) {
            let member = String(member).trimmingWhitespace()
            if member.isEmpty { continue }
            guard let equals = member.firstIndex(of: "=") else { return nil }
            let key = String(member[..<equals]).trimmingWhitespace()
            guard !key.isEmpty, let value = percentDecoded(String(member[member.index(after: equals)...]).trimmingWhitespace()) else { return nil }
            pairs.append((key, value))
        }
        return pairs
    }

    private static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = utf8.next().flatMap(hexDigit), let low = utf8.next().flatMap(hexDigit) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        Hex.digit(byte) ?? ((UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte) ? byte - UInt8(ascii: "A") + 10 : nil)
    }
}

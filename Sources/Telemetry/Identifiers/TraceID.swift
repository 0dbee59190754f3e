// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A W3C/OpenTelemetry trace id: 16 bytes, never all zero when valid, written as 32 lowercase hex digits.
public struct TraceID: Sendable, Hashable, CustomStringConvertible {
    /// The first eight bytes, big-endian.
    public let high: UInt64
    /// The last eight bytes, big-endian: what `traceidratio` sampling compares.
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The W3C spec's invalid value.
    public var isValid: Bool { high != 0 || low != 0 }

    /// A fresh id (`RandomIDs`), never the invalid one.
    public static func random() -> TraceID {
        while true {
            let id = TraceID(high: RandomIDs.next(), low: RandomIDs.next())
            if id.isValid { return id }
        }
    }

    /// 32 lowercase hex digits (W3C `traceparent`, OTLP/JSON).
    public var description: String {
        String(unsafeUninitializedCapacity: 32) { buffer in
            Hex.write(high, into: buffer, at: 0)
            Hex.write(low, into: buffer, at: 16)
            return 32
        }
    }

    /// The 16 bytes, big-endian (OTLP protobuf `bytes`).
    public var bytes: [UInt8] { Hex.bytes(high) + Hex.bytes(low) }

    /// Exactly 32 lowercase hex digits, not all zero; nil otherwise.
    public init?<Text: StringProtocol>(hex text: Text) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 32, let high = Hex.value(utf8[0..<16]), let low = Hex.value(utf8[16..<32]) else { return nil }
        self.init(high: high, low: low)
        guard isValid else { return nil }
    }
}

/// A span id: 8 bytes, never all zero when valid, written as 16 lowercase hex digits.
public struct SpanID: Sendable, Hashable, CustomStringConvertible {
    public let value: UInt64

    public init(_ value: UInt64) { self.value = value }

    public var isValid: Bool { value != 0 }

    /// A fresh id (`RandomIDs`), never zero.
    public static func random() -> SpanID {
        while true {
            let value = RandomIDs.next()
            if value != 0 { return SpanID(value) }
        }
    }

    public var description: String { Hex.string(value) }

    public var bytes: [UInt8] { Hex.bytes(value) }

    /// Exactly 16 lowercase hex digits, not all zero; nil otherwise.
    public init?<Text: StringProtocol>(hex text: Text) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 16, let value = Hex.value(utf8[...]), value != 0 else { return nil }
        self.init(value)
    }
}

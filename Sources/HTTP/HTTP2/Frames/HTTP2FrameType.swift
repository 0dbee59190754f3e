// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Frame types of RFC 9113 §6; other values are extension frames, ignored (§4.1).
public struct HTTP2FrameType: RawRepresentable, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let data = HTTP2FrameType(rawValue: 0x0)
    public static let headers = HTTP2FrameType(rawValue: 0x1)
    public static let priority = HTTP2FrameType(rawValue: 0x2)
    public static let rstStream = HTTP2FrameType(rawValue: 0x3)
    public static let settings = HTTP2FrameType(rawValue: 0x4)
    public static let pushPromise = HTTP2FrameType(rawValue: 0x5)
    public static let ping = HTTP2FrameType(rawValue: 0x6)
    public static let goAway = HTTP2FrameType(rawValue: 0x7)
    public static let windowUpdate = HTTP2FrameType(rawValue: 0x8)
    public static let continuation = HTTP2FrameType(rawValue: 0x9)
}

/// Frame flags (RFC 9113 §6); which apply depends on the type.
public struct HTTP2Flags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let endStream = HTTP2Flags(rawValue: 0x1)
    /// SETTINGS and PING: the same bit as END_STREAM.
    public static let ack = HTTP2Flags(rawValue: 0x1)
    public static let endHeaders = HTTP2Flags(rawValue: 0x4)
    public static let padded = HTTP2Flags(rawValue: 0x8)
    public static let priority = HTTP2Flags(rawValue: 0x20)
}

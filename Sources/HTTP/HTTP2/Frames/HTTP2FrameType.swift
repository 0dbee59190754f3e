// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Frame types of RFC 9113 §6; other values are extension frames, ignored (§4.1).
package struct HTTP2FrameType: RawRepresentable, Sendable, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let data = HTTP2FrameType(rawValue: 0x0)
    package static let headers = HTTP2FrameType(rawValue: 0x1)
    package static let priority = HTTP2FrameType(rawValue: 0x2)
    package static let rstStream = HTTP2FrameType(rawValue: 0x3)
    package static let settings = HTTP2FrameType(rawValue: 0x4)
    package static let pushPromise = HTTP2FrameType(rawValue: 0x5)
    package static let ping = HTTP2FrameType(rawValue: 0x6)
    package static let goAway = HTTP2FrameType(rawValue: 0x7)
    package static let windowUpdate = HTTP2FrameType(rawValue: 0x8)
    package static let continuation = HTTP2FrameType(rawValue: 0x9)
}

/// Frame flags (RFC 9113 §6); which apply depends on the type.
package struct HTTP2Flags: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let endStream = HTTP2Flags(rawValue: 0x1)
    /// SETTINGS and PING: the same bit as END_STREAM.
    package static let ack = HTTP2Flags(rawValue: 0x1)
    package static let endHeaders = HTTP2Flags(rawValue: 0x4)
    package static let padded = HTTP2Flags(rawValue: 0x8)
    package static let priority = HTTP2Flags(rawValue: 0x20)
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Writes frames (RFC 9113 §4.1, §6) onto the end of a byte buffer; the inverse of `HTTP2FrameDecoder`.
/// Frames are written unpadded unless `padding` is given (padding is for senders that hide lengths).
package enum HTTP2FrameEncoder {
    package static func append(_ frame: HTTP2Frame, padding: Int = 0, into out: inout [UInt8]) {
        var flags = frame.flags
        let paddable = frame.type == .data || frame.type == .headers || frame.type == .pushPromise
        let padded = padding > 0 && paddable
        if padded { flags.insert(.padded) } else if paddable { flags.remove(.padded) }
        // An empty buffer (the output just handed to the socket) gets room for a few frames at
        // once: grown from nothing it was reallocated three or four times for one HEADERS frame.
        if out.capacity == 0 { out.reserveCapacity(256) }
        let headerStart = out.count
        appendHeader(length: 0, type: frame.type, flags: [], streamID: frame.streamID, into: &out)
        let payloadStart = out.count
        if padded { out.append(UInt8(padding)) }
        switch frame.payload {
        case .data(let bytes):
            out.append(contentsOf: bytes)
        case .headers(let fragment, let dependsOn):
            if let dependsOn {
                flags.insert(.priority)
                appendUInt32(dependsOn, into: &out)
                out.append(15) // the default weight, 16, less one (§5.3.2)
            } else {
                flags.remove(.priority)
            }
            out.append(contentsOf: fragment)
        case .priority(let dependsOn):
            appendUInt32(dependsOn, into: &out)
            out.append(15)
        case .rstStream(let code):
            appendUInt32(code.rawValue, into: &out)
        case .settings(let settings):
            for setting in settings {
                out.append(UInt8(setting.identifier.rawValue >> 8))
                out.append(UInt8(truncatingIfNeeded: setting.identifier.rawValue))
                appendUInt32(setting.value, into: &out)
            }
        case .pushPromise(let promised, let fragment):
            appendUInt32(promised, into: &out)
            out.append(contentsOf: fragment)
        case .ping(let opaque):
            out.append(contentsOf: opaque.prefix(8))
            if opaque.count < 8 { out.append(contentsOf: repeatElement(0, count: 8 - opaque.count)) }
        case .goAway(let lastStreamID, let code, let debugData):
            appendUInt32(lastStreamID, into: &out)
            appendUInt32(code.rawValue, into: &out)
            out.append(contentsOf: debugData)
        case .windowUpdate(let increment):
            appendUInt32(increment, into: &out)
        case .continuation(let fragment):
            out.append(contentsOf: fragment)
        case .unknown(_, let payload):
            out.append(contentsOf: payload)
        }
        if padded { out.append(contentsOf: repeatElement(0, count: padding)) }
        patchHeader(at: headerStart, length: out.count - payloadStart, flags: flags, in: &out)
    }

    /// A DATA frame straight from a slice of a body, without building a `HTTP2Frame` first.
    package static func appendData(streamID: UInt32, _ bytes: ArraySlice<UInt8>, endStream: Bool, into out: inout [UInt8]) {
        appendHeader(length: bytes.count, type: .data, flags: endStream ? .endStream : [], streamID: streamID, into: &out)
        out.append(contentsOf: bytes)
    }

    /// A frame's 9-byte header (RFC 9113 §4.1), for a payload written after it. Byte by byte: an
    /// array literal appended was a heap allocation per frame.
    @inline(__always)
    static func appendHeader(length: Int, type: HTTP2FrameType, flags: HTTP2Flags, streamID: UInt32, into out: inout [UInt8]) {
        out.append(UInt8(truncatingIfNeeded: length >> 16))
        out.append(UInt8(truncatingIfNeeded: length >> 8))
        out.append(UInt8(truncatingIfNeeded: length))
        out.append(type.rawValue)
        out.append(flags.rawValue)
        appendUInt32(streamID & 0x7FFF_FFFF, into: &out)
    }

    /// Sets the length and flags of the header `appendHeader` wrote at `start`, once its payload is written.
    static func patchHeader(at start: Int, length: Int, flags: HTTP2Flags, in out: inout [UInt8]) {
        out[start] = UInt8(truncatingIfNeeded: length >> 16)
        out[start + 1] = UInt8(truncatingIfNeeded: length >> 8)
        out[start + 2] = UInt8(truncatingIfNeeded: length)
        out[start + 4] = flags.rawValue
    }

    static func appendUInt32(_ value: UInt32, into out: inout [UInt8]) {
        out.append(UInt8(truncatingIfNeeded: value >> 24))
        out.append(UInt8(truncatingIfNeeded: value >> 16))
        out.append(UInt8(truncatingIfNeeded: value >> 8))
        out.append(UInt8(truncatingIfNeeded: value))
    }
}

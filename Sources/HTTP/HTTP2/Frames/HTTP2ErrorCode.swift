// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The error codes of RFC 9113 §7; unknown codes are kept as they came (§7: not special).
public struct HTTP2ErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let noError = HTTP2ErrorCode(rawValue: 0x0)
    public static let protocolError = HTTP2ErrorCode(rawValue: 0x1)
    public static let internalError = HTTP2ErrorCode(rawValue: 0x2)
    public static let flowControlError = HTTP2ErrorCode(rawValue: 0x3)
    public static let settingsTimeout = HTTP2ErrorCode(rawValue: 0x4)
    public static let streamClosed = HTTP2ErrorCode(rawValue: 0x5)
    public static let frameSizeError = HTTP2ErrorCode(rawValue: 0x6)
    public static let refusedStream = HTTP2ErrorCode(rawValue: 0x7)
    public static let cancel = HTTP2ErrorCode(rawValue: 0x8)
    public static let compressionError = HTTP2ErrorCode(rawValue: 0x9)
    public static let connectError = HTTP2ErrorCode(rawValue: 0xA)
    public static let enhanceYourCalm = HTTP2ErrorCode(rawValue: 0xB)
    public static let inadequateSecurity = HTTP2ErrorCode(rawValue: 0xC)
    public static let http11Required = HTTP2ErrorCode(rawValue: 0xD)

    public var description: String {
        switch rawValue {
        case 0x0: "NO_ERROR"
        case 0x1: "PROTOCOL_ERROR"
        case 0x2: "INTERNAL_ERROR"
        case 0x3: "FLOW_CONTROL_ERROR"
        case 0x4: "SETTINGS_TIMEOUT"
        case 0x5: "STREAM_CLOSED"
        case 0x6: "FRAME_SIZE_ERROR"
        case 0x7: "REFUSED_STREAM"
        case 0x8: "CANCEL"
        case 0x9: "COMPRESSION_ERROR"
        case 0xA: "CONNECT_ERROR"
        case 0xB: "ENHANCE_YOUR_CALM"
        case 0xC: "INADEQUATE_SECURITY"
        case 0xD: "HTTP_1_1_REQUIRED"
        default: "0x\(String(rawValue, radix: 16))"
        }
    }
}

/// A protocol violation found while reading: a connection error (`streamID` nil), answered with
/// GOAWAY and a close, or a stream error, answered with RST_STREAM on that stream (RFC 9113 §5.4).
public struct HTTP2ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: HTTP2ErrorCode
    public var streamID: UInt32?
    public var reason: String

    public static func connection(_ code: HTTP2ErrorCode, _ reason: String) -> HTTP2ProtocolError {
        HTTP2ProtocolError(code: code, streamID: nil, reason: reason)
    }

    public static func stream(_ streamID: UInt32, _ code: HTTP2ErrorCode, _ reason: String) -> HTTP2ProtocolError {
        HTTP2ProtocolError(code: code, streamID: streamID, reason: reason)
    }

    public var description: String {
        if let streamID { return "stream \(streamID) error \(code): \(reason)" }
        return "connection error \(code): \(reason)"
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The error codes of RFC 9113 §7; unknown codes are kept as they came (§7: not special).
///
/// Public because an ``HTTP2Event`` carries one (the code of a reset or GOAWAY, either way); the
/// frames and the error they end in stay inside the library.
public struct HTTP2ErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The 32-bit code as it goes on the wire.
    public let rawValue: UInt32
    /// The code with this wire value, known or not.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// NO_ERROR: the condition is not an error (a graceful GOAWAY, a stream its peer no longer needs).
    public static let noError = HTTP2ErrorCode(rawValue: 0x0)
    /// PROTOCOL_ERROR: the peer broke a rule of the protocol.
    public static let protocolError = HTTP2ErrorCode(rawValue: 0x1)
    /// INTERNAL_ERROR: the sender failed in a way of its own.
    public static let internalError = HTTP2ErrorCode(rawValue: 0x2)
    /// FLOW_CONTROL_ERROR: the peer sent more than a flow-control window allowed.
    public static let flowControlError = HTTP2ErrorCode(rawValue: 0x3)
    /// SETTINGS_TIMEOUT: a SETTINGS frame was not acknowledged in time.
    public static let settingsTimeout = HTTP2ErrorCode(rawValue: 0x4)
    /// STREAM_CLOSED: a frame arrived on a stream that was already half-closed.
    public static let streamClosed = HTTP2ErrorCode(rawValue: 0x5)
    /// FRAME_SIZE_ERROR: a frame had a size its type or the settings do not allow.
    public static let frameSizeError = HTTP2ErrorCode(rawValue: 0x6)
    /// REFUSED_STREAM: the stream was refused before any of it was processed; the client may retry it.
    public static let refusedStream = HTTP2ErrorCode(rawValue: 0x7)
    /// CANCEL: the stream is no longer needed (a client that went away, a consumer that stopped reading).
    public static let cancel = HTTP2ErrorCode(rawValue: 0x8)
    /// COMPRESSION_ERROR: the HPACK context of the connection cannot be kept.
    public static let compressionError = HTTP2ErrorCode(rawValue: 0x9)
    /// CONNECT_ERROR: the connection of a CONNECT request was reset or closed.
    public static let connectError = HTTP2ErrorCode(rawValue: 0xA)
    /// ENHANCE_YOUR_CALM: the peer behaves in a way that may be abusive (floods of resets, control frames or CONTINUATION frames).
    public static let enhanceYourCalm = HTTP2ErrorCode(rawValue: 0xB)
    /// INADEQUATE_SECURITY: the transport does not meet the protocol's security requirements.
    public static let inadequateSecurity = HTTP2ErrorCode(rawValue: 0xC)
    /// HTTP_1_1_REQUIRED: the request should be made again over HTTP/1.1.
    public static let http11Required = HTTP2ErrorCode(rawValue: 0xD)

    /// The code's name as RFC 9113 spells it (`PROTOCOL_ERROR`), or its value in hex when unknown.
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
package struct HTTP2ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    package var code: HTTP2ErrorCode
    package var streamID: UInt32?
    package var reason: String

    package static func connection(_ code: HTTP2ErrorCode, _ reason: String) -> HTTP2ProtocolError {
        HTTP2ProtocolError(code: code, streamID: nil, reason: reason)
    }

    package static func stream(_ streamID: UInt32, _ code: HTTP2ErrorCode, _ reason: String) -> HTTP2ProtocolError {
        HTTP2ProtocolError(code: code, streamID: streamID, reason: reason)
    }

    package var description: String {
        if let streamID { return "stream \(streamID) error \(code): \(reason)" }
        return "connection error \(code): \(reason)"
    }
}

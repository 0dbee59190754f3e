// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Serialises a status line and header fields into bytes, into the same buffer
/// as a small body so both leave in a single write.
enum ResponseHeadEncoder {
    /// The head's length is counted first and `out` grown once by it; the pieces are then copied
    /// into place: one capacity check per head, where appending piece by piece made about 25
    /// (each checking capacity and uniqueness).
    ///
    /// - Parameters:
    ///   - requestID: written as `X-Request-ID` after the handler's fields, in place of any the
    ///     handler set, so a writer stamps it without copying the handler's header list.
    ///   - date: the `Date` value (`HTTPDate.current` unless the caller keeps its own copy).
    static func encode(
        status: HTTPStatus,
        version: HTTPVersion,
        headers: HTTPHeaders,
        framing: Framing,
        keepAlive: Bool,
        serverName: String?,
        requestID: String? = nil,
        date: [UInt8] = HTTPDate.current,
        into out: inout [UInt8]
    ) {
        let reason = status.reasonPhrase
        // "HTTP/1.1 " code " " reason, "\r\nDate: " date, and the closing "\r\n\r\n".
        var length = 9 + HeadWriter.decimalCount(status.code) + 1 + reason.utf8.count + 8 + date.count + 4
        if let serverName { length += 10 + serverName.utf8.count }
        switch framing {
        case .contentLength(let bodyLength): length += 18 + HeadWriter.decimalCount(bodyLength)
        case .chunked: length += 28
        case .none, .untilClose: break
        }
        if !keepAlive { length += 19 } else if version == .http1_0 { length += 24 }
        let stampsRequestID = requestID != nil
        headers.withFields { fields in
            for index in fields.indices where writes(fields[index].name, stampingRequestID: stampsRequestID) {
                length += 4 + fields[index].name.utf8.count + fields[index].value.utf8.count
            }
        }
        if let requestID { length += 16 + requestID.utf8.count }

        let start = out.count
        out.append(contentsOf: repeatElement(0, count: length))
        let written = out.withUnsafeMutableBytes { raw -> Int in
            var head = HeadWriter(raw.baseAddress! + start)
            head.text(version == .http1_0 ? "HTTP/1.0 " : "HTTP/1.1 ")
            head.decimal(status.code)
            head.byte(32)
            head.string(reason)
            head.text("\r\nDate: ")
            date.withUnsafeBytes { head.bytes($0) }
            if let serverName {
                head.text("\r\nServer: ")
                head.string(serverName)
            }
            switch framing {
            case .contentLength(let bodyLength):
                head.text("\r\nContent-Length: ")
                head.decimal(bodyLength)
            case .chunked:
                head.text("\r\nTransfer-Encoding: chunked")
            case .none, .untilClose:
                break
            }
            if !keepAlive {
                head.text("\r\nConnection: close")
            } else if version == .http1_0 {
                head.text("\r\nConnection: keep-alive")
            }
            headers.withFields { fields in
                for index in fields.indices where writes(fields[index].name, stampingRequestID: stampsRequestID) {
                    head.field(fields[index].name, fields[index].value)
                }
            }
            if let requestID { head.field("X-Request-ID", requestID) }
            head.text("\r\n\r\n")
            return head.at - (raw.baseAddress! + start)
        }
        // Shorter only when a value's CR or LF bytes were dropped.
        if written < length { out.removeLast(length - written) }
    }

    /// Whether a handler's field goes out: not the framing fields, and not its `X-Request-ID`
    /// when the writer stamps its own.
    private static func writes(_ name: String, stampingRequestID: Bool) -> Bool {
        if isFramingField(name) { return false }
        guard stampingRequestID, name.utf8.count == 12, name.utf8.first.map({ $0 | 0x20 }) == UInt8(ascii: "x") else { return true }
        return !HTTPHeaders.sameName(name, "X-Request-ID")
    }

    /// The server decides framing and persistence itself; handler copies of these fields would contradict it.
    static func isFramingField(_ name: String) -> Bool {
        switch name.utf8.count {
        case 10: HTTPHeaders.sameName(name, "Connection")
        case 14: HTTPHeaders.sameName(name, "Content-Length")
        case 17: HTTPHeaders.sameName(name, "Transfer-Encoding")
        default: false
        }
    }

    enum Framing {
        case contentLength(Int)
        case chunked
        /// HTTP/1.0 streaming: the body ends when the connection closes.
        case untilClose
        /// 1xx/204/304: no body and no length.
        case none
    }

    static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}

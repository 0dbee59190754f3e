/// Serialises a status line and header fields into bytes, into the same buffer
/// as a small body so both leave in a single write.
enum ResponseHeadEncoder {
    /// The head's length is counted first and `out` grown once by it; the pieces are then copied
    /// into place. Appending piece by piece (about 25 appends, each checking capacity and
    /// uniqueness) cost about 4,100 instructions per demo-upstream answer (callgrind).
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
        var length = 9 + decimalCount(status.code) + 1 + reason.utf8.count + 8 + date.count + 4
        if let serverName { length += 10 + serverName.utf8.count }
        switch framing {
        case .contentLength(let bodyLength): length += 18 + decimalCount(bodyLength)
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
            var head = Writer(raw.baseAddress! + start)
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

    /// Copies the pieces of a head into memory counted out for them.
    private struct Writer {
        var at: UnsafeMutableRawPointer

        init(_ start: UnsafeMutableRawPointer) { at = start }

        mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress else { return }
            at.copyMemory(from: base, byteCount: bytes.count)
            at += bytes.count
        }

        mutating func byte(_ byte: UInt8) {
            at.storeBytes(of: byte, as: UInt8.self)
            at += 1
        }

        mutating func text(_ text: StaticString) {
            bytes(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        mutating func string(_ text: String) {
            if text.utf8.withContiguousStorageIfAvailable({ bytes(UnsafeRawBufferPointer($0)) }) == nil {
                for byte in text.utf8 { self.byte(byte) }
            }
        }

        /// CR LF, `name: value`; a value's CR and LF bytes are dropped, so values from handlers
        /// cannot inject header lines.
        mutating func field(_ name: String, _ value: String) {
            byte(13)
            byte(10)
            string(name)
            byte(58)
            byte(32)
            // Copied, then the copy checked eight bytes at a time: a byte-by-byte `contains` on
            // the value cost about 180 instructions a field (callgrind).
            let start = at
            string(value)
            if Self.containsLineBreak(UnsafeRawBufferPointer(start: start, count: at - start)) {
                at = start
                for byte in value.utf8 where byte != 13 && byte != 10 { self.byte(byte) }
            }
        }

        private static func containsLineBreak(_ bytes: UnsafeRawBufferPointer) -> Bool {
            var index = 0
            while index + 8 <= bytes.count {
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                if ByteWords.equal(word, 13) | ByteWords.equal(word, 10) != 0 { return true }
                index += 8
            }
            while index < bytes.count {
                if bytes[index] == 13 || bytes[index] == 10 { return true }
                index += 1
            }
            return false
        }

        mutating func decimal(_ value: Int) {
            let count = ResponseHeadEncoder.decimalCount(value)
            var rest = value
            for index in stride(from: count - 1, through: 0, by: -1) {
                at.storeBytes(of: UInt8(48 + rest % 10), toByteOffset: index, as: UInt8.self)
                rest /= 10
            }
            at += count
        }
    }

    /// Digits of a non-negative decimal.
    static func decimalCount(_ value: Int) -> Int {
        var count = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
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

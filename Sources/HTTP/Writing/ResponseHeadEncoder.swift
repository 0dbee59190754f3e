/// Serialises a status line and header fields into bytes, into the same buffer
/// as a small body so both leave in a single write.
enum ResponseHeadEncoder {
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
        out.append(contentsOf: version == .http1_0 ? "HTTP/1.0 ".utf8 : "HTTP/1.1 ".utf8)
        appendDecimal(status.code, to: &out)
        out.append(32)
        append(status.reasonPhrase, to: &out)
        append("\r\nDate: ", to: &out)
        out.append(contentsOf: date)
        if let serverName {
            append("\r\nServer: ", to: &out)
            append(serverName, to: &out)
        }
        switch framing {
        case .contentLength(let length):
            append("\r\nContent-Length: ", to: &out)
            appendDecimal(length, to: &out)
        case .chunked:
            append("\r\nTransfer-Encoding: chunked", to: &out)
        case .none, .untilClose:
            break
        }
        if !keepAlive {
            append("\r\nConnection: close", to: &out)
        } else if version == .http1_0 {
            append("\r\nConnection: keep-alive", to: &out)
        }
        for (name, value) in headers where !isFramingField(name) {
            if requestID != nil && HTTPHeaders.sameName(name, "X-Request-ID") { continue }
            appendField(name, value, to: &out)
        }
        if let requestID { appendField("X-Request-ID", requestID, to: &out) }
        append("\r\n\r\n", to: &out)
    }

    /// CR LF, `name: value`; a value's CR and LF bytes are dropped, so values from handlers
    /// cannot inject header lines.
    private static func appendField(_ name: String, _ value: String, to out: inout [UInt8]) {
        out.append(13)
        out.append(10)
        append(name, to: &out)
        out.append(58)
        out.append(32)
        let clean = value.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard !bytes.contains(where: { $0 == 13 || $0 == 10 }) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if clean != true {
            for byte in value.utf8 where byte != 13 && byte != 10 { out.append(byte) }
        }
    }

    /// A string's bytes in one copy when the string lends its storage (native strings do).
    @inline(__always)
    private static func append(_ text: String, to out: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) == nil {
            out.append(contentsOf: text.utf8)
        }
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

    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value < 10 { out.append(UInt8(48 + value)); return }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { raw in
            while rest > 0 {
                raw[count] = UInt8(48 + rest % 10)
                rest /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { out.append(raw[index]) }
        }
    }

    static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}

/// Serialises a status line and header fields into bytes, into the same buffer
/// as a small body so both leave in a single write.
enum ResponseHeadEncoder {
    static func encode(
        status: HTTPStatus,
        version: HTTPVersion,
        headers: HTTPHeaders,
        framing: Framing,
        keepAlive: Bool,
        serverName: String?,
        into out: inout [UInt8]
    ) {
        out.append(contentsOf: version == .http1_0 ? "HTTP/1.0 ".utf8 : "HTTP/1.1 ".utf8)
        appendDecimal(status.code, to: &out)
        out.append(32)
        out.append(contentsOf: status.reasonPhrase.utf8)
        out.append(contentsOf: "\r\nDate: ".utf8)
        out.append(contentsOf: HTTPDate.current)
        if let serverName {
            out.append(contentsOf: "\r\nServer: ".utf8)
            out.append(contentsOf: serverName.utf8)
        }
        switch framing {
        case .contentLength(let length):
            out.append(contentsOf: "\r\nContent-Length: ".utf8)
            appendDecimal(length, to: &out)
        case .chunked:
            out.append(contentsOf: "\r\nTransfer-Encoding: chunked".utf8)
        case .none, .untilClose:
            break
        }
        if !keepAlive {
            out.append(contentsOf: "\r\nConnection: close".utf8)
        } else if version == .http1_0 {
            out.append(contentsOf: "\r\nConnection: keep-alive".utf8)
        }
        for (name, value) in headers where !isFramingField(name) {
            out.append(13)
            out.append(10)
            out.append(contentsOf: name.utf8)
            out.append(58)
            out.append(32)
            // Values from handlers must not be able to inject header lines.
            for byte in value.utf8 where byte != 13 && byte != 10 { out.append(byte) }
        }
        out.append(contentsOf: "\r\n\r\n".utf8)
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

import NetCore

/// Incremental parser for one HTTP/1.1 response on a client connection: status line,
/// headers, then a body framed by `Content-Length`, chunked encoding, or connection close.
struct HTTPResponseParser {
    enum Progress: Equatable {
        case needMore
        /// The response, and whether the connection may carry another request.
        case complete(HTTPClientResponse, reusable: Bool)
    }

    enum Failure: Error, Equatable {
        case malformed(String)
        case truncated
    }

    static let maxHeaderBytes = 64 * 1024
    /// An upstream answer is trusted with any body size; its trailers get the head's budget.
    static let chunkedLimits = ChunkedCodec.Decoder.Limits(maxBodyBytes: .max, maxTrailerBytes: maxHeaderBytes, maxTrailerFields: 100)

    private enum Framing {
        case length(Int)
        case chunked(ChunkedCodec.Decoder)
        case untilClose
    }

    private enum Phase {
        case head
        case body(Framing)
    }

    private var buffer: [UInt8] = []
    private var phase = Phase.head
    private var status = 0
    private var headers = HTTPHeaders()
    private var body: [UInt8] = []
    private var keepAlive = true
    private let expectsBody: Bool

    /// - Parameter requestMethod: a HEAD answer never has a body.
    init(requestMethod: HTTPMethod = .get) {
        expectsBody = requestMethod != .head
    }

    mutating func feed(_ bytes: [UInt8]) throws -> Progress {
        buffer.append(contentsOf: bytes)
        while true {
            switch phase {
            case .head:
                guard let end = Self.headEnd(in: buffer) else {
                    if buffer.count > Self.maxHeaderBytes { throw Failure.malformed("header block too large") }
                    return .needMore
                }
                try parseHead(buffer[..<end])
                buffer.removeSubrange(..<(end + 4))
                if let done = try startBody() { return done }
            case .body(.length(let length)):
                guard buffer.count >= length else { return .needMore }
                body = Array(buffer[..<length])
                buffer.removeSubrange(..<length)
                return try finish()
            case .body(.chunked(var decoder)):
                let (consumed, outcome) = buffer.withUnsafeBytes { decoder.decode($0, from: 0, into: &body) }
                buffer.removeSubrange(..<consumed)
                switch outcome {
                case .needMore:
                    phase = .body(.chunked(decoder))
                    return .needMore
                case .done:
                    return try finish()
                case .failed(let error):
                    throw Failure.malformed("chunked body: \(error)")
                }
            case .body(.untilClose):
                body.append(contentsOf: buffer)
                buffer.removeAll()
                return .needMore
            }
        }
    }

    /// The peer closed the connection: completes a close-delimited body, otherwise the
    /// answer was cut short.
    mutating func connectionClosed() throws -> HTTPClientResponse {
        if case .body(.untilClose) = phase {
            keepAlive = false
            if case .complete(let response, _) = try finish() { return response }
        }
        throw Failure.truncated
    }

    /// Parses the head on its bytes: Character-level splitting and Foundation's generic
    /// `firstRange(of:)` cost about 300,000 instructions per avatar response (callgrind, /users).
    private mutating func parseHead(_ head: ArraySlice<UInt8>) throws {
        var lines: [ArraySlice<UInt8>] = []
        var start = head.startIndex
        while let end = Self.firstCRLF(in: head, from: start) {
            lines.append(head[start..<end])
            start = end + 2
        }
        lines.append(head[start...])
        let statusLine = String(decoding: lines.removeFirst(), as: UTF8.self).split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let code = Int(statusLine[1]), (100...599).contains(code)
        else { throw Failure.malformed("bad status line") }
        status = code
        if statusLine[0] == "HTTP/1.0" { keepAlive = false }
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw Failure.malformed("bad header line") }
            let name = line[..<colon], value = line[(colon + 1)...]
            // RFC 9112 §5: the name is a token; a value holds no CR, LF or NUL (fuzzing found a bare CR accepted in a name).
            guard !name.isEmpty, name.allSatisfy(HTTPSyntax.isTokenCharacter), value.allSatisfy(HTTPSyntax.isFieldValueCharacter)
            else { throw Failure.malformed("bad header field") }
            headers.add(name: String(decoding: name, as: UTF8.self), value: Self.trimmed(value))
        }
        if headers.containsToken("close", in: "Connection") { keepAlive = false }
        if headers.containsToken("keep-alive", in: "Connection") { keepAlive = true }
    }

    /// A field value without the spaces and tabs around it (RFC 9112 §5.1's optional whitespace).
    private static func trimmed(_ value: ArraySlice<UInt8>) -> String {
        var value = value
        while let first = value.first, first == 32 || first == 9 { value.removeFirst() }
        while let last = value.last, last == 32 || last == 9 { value.removeLast() }
        return String(decoding: value, as: UTF8.self)
    }

    /// Index of the CR of the first CRLFCRLF in `bytes`, which ends the head.
    private static func headEnd(in bytes: [UInt8]) -> Int? {
        var from = bytes.startIndex
        while let crlf = firstCRLF(in: bytes[...], from: from) {
            if crlf + 3 < bytes.endIndex, bytes[crlf + 2] == 13, bytes[crlf + 3] == 10 { return crlf }
            from = crlf + 2
        }
        return nil
    }

    /// Index of the CR of the first CRLF in `bytes` at or after `from`.
    private static func firstCRLF(in bytes: ArraySlice<UInt8>, from: Int) -> Int? {
        var index = from
        while index + 1 < bytes.endIndex {
            if bytes[index] == 13, bytes[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }

    private mutating func startBody() throws -> Progress? {
        if (100..<200).contains(status) {
            // An interim answer (100 Continue, 103 Early Hints): the final one follows, maybe in
            // the same read, so parsing goes on (fuzzing found it waiting for bytes already here).
            status = 0
            headers = HTTPHeaders()
            return nil
        }
        if !expectsBody || status == 204 || status == 304 {
            return try finish()
        }
        if headers.containsToken("chunked", in: "Transfer-Encoding") {
            phase = .body(.chunked(ChunkedCodec.Decoder(limits: Self.chunkedLimits)))
        } else if let length = headers["Content-Length"].flatMap({ Int($0) }), length >= 0 {
            phase = .body(.length(length))
        } else {
            phase = .body(.untilClose)
            keepAlive = false
        }
        return nil
    }

    private mutating func finish() throws -> Progress {
        var decoded = body
        // No body (HEAD, 204, 304, or empty): the coding names a representation that is not here.
        if !body.isEmpty, let coding = headers["Content-Encoding"], HTTPHeaders.sameName(coding.trimmingSpaces, "gzip") {
            guard let inflated = try? Gzip.decompress(body) else { throw Failure.malformed("bad gzip body") }
            decoded = inflated
            headers.remove(name: "Content-Encoding")
            headers.replaceOrAdd(name: "Content-Length", value: String(decoded.count))
        }
        let response = HTTPClientResponse(status: HTTPStatus(code: status), headers: headers, body: decoded)
        return .complete(response, reusable: keepAlive && buffer.isEmpty)
    }
}

/// An incremental HTTP/1.1 request parser.
///
/// Bytes may arrive in any split, even one at a time: each byte is examined
/// once (line ends are found with a scan of the new bytes only), so a slow
/// or hostile client cannot cause quadratic rescans. Limits are checked as
/// bytes arrive, before anything is buffered past them. After an error the
/// parser stays failed: the connection must answer and close, since the
/// framing of anything that follows cannot be trusted (no request smuggling).
public struct RequestParser {
    public enum Output {
        /// Headers are complete and the client waits for `100 Continue` before the body.
        case continueExpected(RequestHead)
        case request(RequestHead, body: [UInt8])
        case failure(HTTPParseError)
    }

    private enum State {
        case requestLine
        case headerLines
        case body(remaining: Int)
        case chunkedBody(ChunkedCodec.Decoder)
        case failed
    }

    private let limits: HTTPLimits
    private var state = State.requestLine
    private var line: [UInt8] = []
    private var headerBytes = 0
    private var head: RequestHead?
    private var body: [UInt8] = []

    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    /// True once any byte of a request not yet complete has arrived.
    public private(set) var hasPartialRequest = false

    /// True while the request line or header fields are being read.
    public var isReadingHead: Bool {
        switch state {
        case .requestLine, .headerLines: hasPartialRequest
        default: false
        }
    }

    public var hasFailed: Bool {
        if case .failed = state { return true }
        return false
    }

    /// Consumes `bytes`, reporting each complete request (and any failure) to `output`.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ output: (Output) -> Void) {
        var index = 0
        let count = bytes.count
        while index < count {
            switch state {
            case .failed:
                return
            case .requestLine, .headerLines:
                index = consumeLine(bytes, from: index, output)
            case .body(let remaining):
                let take = min(remaining, count - index)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))
                index += take
                if take == remaining { complete(output) } else { state = .body(remaining: remaining - take) }
            case .chunkedBody(var decoder):
                state = .failed // while the decoder is out of `state`, so it is not copied on write
                let (next, outcome) = decoder.decode(bytes, from: index, into: &body)
                index = next
                switch outcome {
                case .needMore: state = .chunkedBody(decoder)
                case .done: complete(output)
                case .failed(let error): fail(error, output)
                }
            }
        }
    }

    // MARK: - Lines

    /// Appends bytes up to the next LF to `line` (checking the line's limit), then handles the line.
    private mutating func consumeLine(_ bytes: UnsafeRawBufferPointer, from start: Int, _ output: (Output) -> Void) -> Int {
        hasPartialRequest = true
        var end = start
        let count = bytes.count
        while end < count && bytes[end] != 10 { end += 1 }
        let found = end < count
        let newBytes = end - start
        let limit = currentLineLimit
        if line.count + newBytes > limit.bytes {
            fail(limit.error, output)
            return count
        }
        if newBytes > 0 { line.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end])) }
        guard found else { return count }
        if line.last == 13 { line.removeLast() }
        countHeadBytes(line.count + 2, output)
        if !hasFailed { handleLine(output) }
        line.removeAll(keepingCapacity: line.capacity <= 1024)
        return end + 1
    }

    private var currentLineLimit: (bytes: Int, error: HTTPParseError) {
        switch state {
        case .requestLine: (limits.maxRequestLineBytes, .requestLineTooLong)
        default: (limits.maxHeaderBytes - headerBytes, .headersTooLarge("header fields too large"))
        }
    }

    private mutating func countHeadBytes(_ n: Int, _ output: (Output) -> Void) {
        switch state {
        case .headerLines:
            headerBytes += n
            if headerBytes > limits.maxHeaderBytes { fail(.headersTooLarge("header fields too large"), output) }
        default:
            break
        }
    }

    private mutating func handleLine(_ output: (Output) -> Void) {
        switch state {
        case .requestLine:
            // RFC 9112 §2.2: ignore empty lines before a request line.
            if line.isEmpty { return }
            parseRequestLine(output)
        case .headerLines:
            if line.isEmpty {
                finishHead(output)
            } else {
                var headers = head?.headers ?? HTTPHeaders()
                head?.headers = HTTPHeaders()
                parseField(into: &headers, output)
                head?.headers = headers
            }
        default:
            break
        }
    }

    private mutating func parseRequestLine(_ output: (Output) -> Void) {
        guard let firstSpace = line.firstIndex(of: 32),
              let secondSpace = line[(firstSpace + 1)...].firstIndex(of: 32),
              firstSpace > 0, secondSpace > firstSpace + 1
        else { return fail(.malformed("malformed request line"), output) }
        let method = line[..<firstSpace]
        let target = line[(firstSpace + 1)..<secondSpace]
        let version = line[(secondSpace + 1)...]
        guard method.allSatisfy(HTTPSyntax.isTokenCharacter) else {
            return fail(.malformed("invalid method"), output)
        }
        guard target.allSatisfy({ $0 > 32 && $0 != 127 }) else {
            return fail(.malformed("invalid request target"), output)
        }
        guard let parsedVersion = HTTPSyntax.version(version) else {
            return fail(.malformed("invalid HTTP version"), output)
        }
        guard parsedVersion.major == 1 && parsedVersion.minor <= 1 else {
            return fail(.unsupportedVersion, output)
        }
        head = RequestHead(
            method: HTTPSyntax.method(method),
            target: String(decoding: target, as: UTF8.self),
            version: parsedVersion,
            headers: HTTPHeaders(),
            contentLength: nil,
            isChunked: false,
            expectsContinue: false
        )
        headerBytes = 0
        state = .headerLines
    }

    private mutating func parseField(into headers: inout HTTPHeaders, _ output: (Output) -> Void) {
        switch HTTPSyntax.field(in: line) {
        case .failure(let error):
            fail(error, output)
        case .success(let field):
            if headers.count >= limits.maxHeaderFields { return fail(.headersTooLarge("too many header fields"), output) }
            headers.add(name: String(decoding: field.name, as: UTF8.self), value: String(decoding: field.value, as: UTF8.self))
        }
    }

    /// Decides the body framing from the header fields (RFC 9112 §6.3), refusing anything ambiguous.
    private mutating func finishHead(_ output: (Output) -> Void) {
        guard var head else { return }
        let headers = head.headers
        let hosts = headers.values(for: "Host")
        if hosts.count > 1 { return fail(.malformed("more than one Host header"), output) }
        if head.version == .http1_1 && hosts.isEmpty { return fail(.malformed("HTTP/1.1 request without Host"), output) }

        let lengths = headers.values(for: "Content-Length")
        let codings = headers.values(for: "Transfer-Encoding")
        if !codings.isEmpty {
            if !lengths.isEmpty { return fail(.malformed("both Content-Length and Transfer-Encoding"), output) }
            if head.version == .http1_0 { return fail(.malformed("Transfer-Encoding in an HTTP/1.0 request"), output) }
            let elements = codings.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map { $0.trimmingSpaces }
            guard elements.count == 1, HTTPHeaders.sameName(elements[0], "chunked") else {
                return elements.last.map({ HTTPHeaders.sameName($0, "chunked") }) == true
                    ? fail(.unsupportedTransferCoding, output)
                    : fail(.malformed("request body framing is not chunked"), output)
            }
            head.isChunked = true
        } else if !lengths.isEmpty {
            if lengths.count > 1 { return fail(.malformed("duplicate Content-Length"), output) }
            guard let length = HTTPSyntax.contentLength(lengths[0]) else {
                return fail(.malformed("invalid Content-Length"), output)
            }
            if length > limits.maxBodyBytes { return fail(.bodyTooLarge, output) }
            head.contentLength = length
        }

        if let expectation = headers["Expect"] {
            guard HTTPHeaders.sameName(expectation, "100-continue") else { return fail(.unsupportedExpectation, output) }
            head.expectsContinue = head.version == .http1_1 && head.hasBody
        }

        self.head = head
        if head.expectsContinue { output(.continueExpected(head)) }
        if head.isChunked {
            state = .chunkedBody(ChunkedCodec.Decoder(limits: .init(
                maxBodyBytes: limits.maxBodyBytes,
                maxTrailerBytes: limits.maxHeaderBytes - headerBytes, // trailers share the header block's budget
                maxTrailerFields: limits.maxHeaderFields)))
        } else if let length = head.contentLength, length > 0 {
            body.reserveCapacity(length)
            state = .body(remaining: length)
        } else {
            complete(output)
        }
    }

    private mutating func complete(_ output: (Output) -> Void) {
        guard let head else { return }
        let body = self.body
        self.head = nil
        self.body = []
        state = .requestLine
        hasPartialRequest = false
        output(.request(head, body: body))
    }

    private mutating func fail(_ error: HTTPParseError, _ output: (Output) -> Void) {
        state = .failed
        line = []
        body = []
        output(.failure(error))
    }
}

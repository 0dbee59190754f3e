#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An incremental HTTP/1.1 request parser.
///
/// Bytes may arrive in any split, even one at a time: each byte is examined
/// once (line ends are found with a scan of the new bytes only), so a slow
/// or hostile client cannot cause quadratic rescans. Limits are checked as
/// bytes arrive, before anything is buffered past them. After an error the
/// parser stays failed: the connection must answer and close, since the
/// framing of anything that follows cannot be trusted (no request smuggling).
///
/// A line that arrives whole is parsed where it lies in the caller's buffer;
/// only a line split over reads is copied, into `line`. Strings are made once
/// per request part (target, each field's name and value), and the fields that
/// decide the framing (`Host`, `Content-Length`, `Transfer-Encoding`, `Expect`)
/// are recognised as they are parsed, so the head is not searched again at its
/// end: at `/health` this took the parser from about 20,000 instructions per
/// request to about 3,000 (callgrind, `Benchmarks/scripts/profile-server.sh`).
public struct RequestParser {
    public enum Output {
        /// Headers are complete and the client waits for `100 Continue` before the body.
        case continueExpected(RequestHead)
        /// A complete request, with what the parser noted in its fields for the connection.
        case request(RequestHead, notes: HeadNotes, body: [UInt8])
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
    /// The limits every line checks, as plain numbers: read through `limits` (which holds a
    /// reference) they cost a retain and a release per line.
    private let maxRequestLineBytes: Int
    private let maxHeaderBytes: Int
    private let maxHeaderFields: Int
    private var state = State.requestLine
    /// The start of a line whose end has not arrived yet.
    private var line: [UInt8] = []
    private var headerBytes = 0
    private var request = HeadUnderConstruction()
    private var head: RequestHead?
    private var notes = HeadNotes()
    private var body: [UInt8] = []
    /// The previous request's field lines, kept from a connection's second request on (a
    /// connection that serves one request never pays for keeping them).
    private var fieldCache = FieldLineCache()
    private var headsParsed = 0
    /// The previous head's whole field block, when it arrived in one read: see `replayBlock`.
    private var lastBlock = HeaderBlock()
    /// Where the field block being read started in the buffer being fed; -1 when it did not
    /// start in this buffer or a line of it was split over reads.
    private var blockStart = -1

    /// A head's field lines to its blank line, byte for byte, and what they made.
    private struct HeaderBlock {
        var bytes: [UInt8] = []
        var parts = HeadUnderConstruction()
        /// `headerBytes` after the blank line.
        var headerBytes = 0

        /// At most this long: a browser's fields fit; a connection holds no more for it.
        static let maxBytes = 1024
    }

    /// The request line and fields read so far, and what the framing fields said. The head is
    /// built in place and moved out whole at its end: built from separate parts, it was copied
    /// and the parts destroyed, about 450 instructions per request (callgrind, /health).
    private struct HeadUnderConstruction {
        var head = Self.emptyHead
        var hostCount = 0
        var contentLengths: [String] = []
        var transferCodings: [String] = []
        var expectation: String?
        var notes = HeadNotes()

        /// Between requests: nothing allocated.
        init() {}

        static var emptyHead: RequestHead {
            RequestHead(
                method: .get, target: ParsedTarget(text: "", path: "", query: ""), version: .http1_1, headers: HTTPHeaders(),
                contentLength: nil, isChunked: false, expectsContinue: false)
        }
    }

    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
        maxRequestLineBytes = limits.maxRequestLineBytes
        maxHeaderBytes = limits.maxHeaderBytes
        maxHeaderFields = limits.maxHeaderFields
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
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ output: (consuming Output) -> Void) {
        var index = 0
        let count = bytes.count
        blockStart = -1
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

    /// Finds the next LF (checking the line's limit); handles a complete line in place, or
    /// keeps the start of an incomplete one in `line`.
    private mutating func consumeLine(_ bytes: UnsafeRawBufferPointer, from start: Int, _ output: (consuming Output) -> Void) -> Int {
        hasPartialRequest = true
        let count = bytes.count
        let base = bytes.baseAddress!
        let found = memchr(base + start, 10, count - start)
        let end = found.map { UnsafeRawPointer($0) - base } ?? count
        let readingRequestLine = if case .requestLine = state { true } else { false }
        if line.count + (end - start) > (readingRequestLine ? maxRequestLineBytes : maxHeaderBytes - headerBytes) {
            fail(readingRequestLine ? .requestLineTooLong : .headersTooLarge("header fields too large"), output)
            return count
        }
        guard found != nil else {
            line.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            blockStart = -1
            return count
        }
        if line.isEmpty {
            // The whole line is in this read: parse it where it is.
            let withoutCR = end > start && bytes[end - 1] == 13 ? end - 1 : end
            if withoutCR == start && blockStart >= 0 && !readingRequestLine && headsParsed > 0 {
                rememberBlock(UnsafeRawBufferPointer(rebasing: bytes[blockStart...end]))
            }
            handle(UnsafeRawBufferPointer(rebasing: bytes[start..<withoutCR]), output)
            if readingRequestLine, case .headerLines = state {
                blockStart = end + 1
                if replayBlock(bytes, from: end + 1, output) { return end + 1 + lastBlock.bytes.count }
            }
        } else {
            var carried = line
            line = []
            carried.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            if carried.last == 13 { carried.removeLast() }
            carried.withUnsafeBytes { handle($0, output) }
            if !hasFailed {
                carried.removeAll(keepingCapacity: carried.capacity <= 1024)
                line = carried
            }
        }
        return end + 1
    }

    // MARK: - Repeated field blocks

    /// A client sends the same fields request after request (our upstream client byte for byte,
    /// see `RequestFieldsCache`; curl, wrk and browsers too), so when the bytes after a request
    /// line are the last head's field block again, that block's fields and framing facts are
    /// taken as they were made (the header list shared, not rebuilt) and the head finished at
    /// once: same bytes, same limits, same outcome. Six fields cost the demo upstream about
    /// 3,000 instructions read line by line (callgrind).
    private mutating func replayBlock(_ bytes: UnsafeRawBufferPointer, from start: Int, _ output: (consuming Output) -> Void) -> Bool {
        let block = lastBlock.bytes
        guard !block.isEmpty, bytes.count - start >= block.count,
              block.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress! + start, block.count) == 0 })
        else { return false }
        let parts = lastBlock.parts
        request.head.headers = parts.head.headers
        request.notes = parts.notes
        request.hostCount = parts.hostCount
        request.contentLengths = parts.contentLengths
        request.transferCodings = parts.transferCodings
        request.expectation = parts.expectation
        headerBytes = lastBlock.headerBytes
        finishHead(output)
        return true
    }

    /// Keeps the field block that has just been read whole (`block` ends with its blank line)
    /// and what it made, before `finishHead` takes the head away.
    private mutating func rememberBlock(_ block: UnsafeRawBufferPointer) {
        guard block.count <= HeaderBlock.maxBytes else { return }
        lastBlock.bytes.removeAll(keepingCapacity: true)
        lastBlock.bytes.append(contentsOf: block)
        lastBlock.parts.head.headers = request.head.headers
        lastBlock.parts.notes = request.notes
        lastBlock.parts.hostCount = request.hostCount
        lastBlock.parts.contentLengths = request.contentLengths
        lastBlock.parts.transferCodings = request.transferCodings
        lastBlock.parts.expectation = request.expectation
        lastBlock.headerBytes = headerBytes + 2
    }

    /// One complete line, without its CR LF.
    private mutating func handle(_ line: UnsafeRawBufferPointer, _ output: (consuming Output) -> Void) {
        switch state {
        case .requestLine:
            // RFC 9112 §2.2: ignore empty lines before a request line.
            if line.isEmpty { return }
            parseRequestLine(line, output)
        case .headerLines:
            headerBytes += line.count + 2
            if headerBytes > maxHeaderBytes { return fail(.headersTooLarge("header fields too large"), output) }
            if line.isEmpty {
                finishHead(output)
            } else {
                parseField(line, output)
            }
        default:
            break
        }
    }

    private mutating func parseRequestLine(_ line: UnsafeRawBufferPointer, _ output: (consuming Output) -> Void) {
        // Non-empty: empty lines before a request line are skipped.
        let base = line.baseAddress!
        guard let firstFound = memchr(base, 32, line.count), case let firstSpace = UnsafeRawPointer(firstFound) - base,
              let secondFound = memchr(base + firstSpace + 1, 32, line.count - firstSpace - 1),
              case let secondSpace = UnsafeRawPointer(secondFound) - base,
              firstSpace > 0, secondSpace > firstSpace + 1
        else { return fail(.malformed("malformed request line"), output) }
        let method = UnsafeRawBufferPointer(rebasing: line[..<firstSpace])
        let target = UnsafeRawBufferPointer(rebasing: line[(firstSpace + 1)..<secondSpace])
        let version = UnsafeRawBufferPointer(rebasing: line[(secondSpace + 1)...])
        guard method.allSatisfy(HTTPSyntax.isTokenCharacter) else {
            return fail(.malformed("invalid method"), output)
        }
        // Noted in this one pass over the target, so a plain path is split with no second scan.
        var queryMark: Int?
        var escapedPath = false
        for index in 0..<target.count {
            let byte = target[index]
            guard byte > 32 && byte != 127 else { return fail(.malformed("invalid request target"), output) }
            if byte == UInt8(ascii: "?") {
                if queryMark == nil { queryMark = index }
            } else if byte == UInt8(ascii: "%") && queryMark == nil {
                escapedPath = true
            }
        }
        let plainPath = target.first == UInt8(ascii: "/") && !escapedPath
        guard let parsedVersion = HTTPSyntax.version(version) else {
            return fail(.malformed("invalid HTTP version"), output)
        }
        guard parsedVersion.major == 1 && parsedVersion.minor <= 1 else {
            return fail(.unsupportedVersion, output)
        }
        // Filled in place: `request` is fresh here (`finishHead` swapped the last one out), and
        // assigning a whole new value cost an outlined copy and destroy per request.
        request.head.method = HTTPSyntax.method(method)
        let text = String(decoding: target, as: UTF8.self)
        request.head.target = plainPath ? ParsedTarget(checkedPlainPath: text, queryOffset: queryMark) : ParsedTarget(text)
        request.head.version = parsedVersion
        headerBytes = 0
        state = .headerLines
    }

    private mutating func parseField(_ line: UnsafeRawBufferPointer, _ output: (consuming Output) -> Void) {
        let index = request.head.headers.count
        if case let (name, value, valueRange, kind)? = fieldCache.field(line, at: index) {
            if index >= maxHeaderFields { return fail(.headersTooLarge("too many header fields"), output) }
            add(name, value, kind: kind, valueBytes: UnsafeRawBufferPointer(rebasing: line[valueRange]))
            return
        }
        switch HTTPSyntax.field(in: line) {
        case .failure(let error):
            fail(error, output)
        case .success(let field):
            if index >= maxHeaderFields { return fail(.headersTooLarge("too many header fields"), output) }
            let nameBytes = UnsafeRawBufferPointer(rebasing: line[field.name])
            let valueBytes = UnsafeRawBufferPointer(rebasing: line[field.value])
            let name = CommonFieldName.string(for: nameBytes) ?? String(decoding: nameBytes, as: UTF8.self)
            let value = String(decoding: valueBytes, as: UTF8.self)
            let kind = FramingField(nameBytes)
            add(name, value, kind: kind, valueBytes: valueBytes)
            if headsParsed > 0 {
                fieldCache.remember(line, at: index, name: name, value: value, valueRange: field.value, kind: kind)
            }
        }
    }

    /// One valid field: into the head's list, and into what the framing fields said.
    private mutating func add(_ name: String, _ value: String, kind: FramingField?, valueBytes: UnsafeRawBufferPointer) {
        switch kind {
        case .host: request.hostCount += 1
        case .contentLength: request.contentLengths.append(value)
        case .transferEncoding: request.transferCodings.append(value)
        case .expect: if request.expectation == nil { request.expectation = value }
        case .requestID: if request.notes.requestID == nil { request.notes.requestID = value }
        case .userAgent: if request.notes.userAgent == nil { request.notes.userAgent = value }
        case .connection: request.notes.connection.add(valueBytes)
        case nil: break
        }
        // Made with the first field, not with the request line: a replayed block brings its own.
        // Eight fields before the list regrows: wrk sends 1, curl 3, a browser about 10.
        if request.head.headers.isEmpty { request.head.headers = HTTPHeaders(reservingCapacity: 8) }
        request.head.headers.add(name: name, value: value)
    }

    /// Decides the body framing from the header fields (RFC 9112 §6.3), refusing anything ambiguous.
    private mutating func finishHead(_ output: (consuming Output) -> Void) {
        var parts = HeadUnderConstruction()
        swap(&parts, &request)
        var head = HeadUnderConstruction.emptyHead
        swap(&head, &parts.head)
        headsParsed += 1
        if parts.hostCount > 1 { return fail(.malformed("more than one Host header"), output) }
        if head.version == .http1_1 && parts.hostCount == 0 { return fail(.malformed("HTTP/1.1 request without Host"), output) }

        let lengths = parts.contentLengths
        let codings = parts.transferCodings
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

        if let expectation = parts.expectation {
            guard HTTPHeaders.sameName(expectation, "100-continue") else { return fail(.unsupportedExpectation, output) }
            head.expectsContinue = head.version == .http1_1 && head.hasBody
        }

        if head.expectsContinue { output(.continueExpected(head)) }
        if head.isChunked {
            notes = parts.notes
            self.head = consume head
            state = .chunkedBody(ChunkedCodec.Decoder(limits: .init(
                maxBodyBytes: limits.maxBodyBytes,
                maxTrailerBytes: maxHeaderBytes - headerBytes, // trailers share the header block's budget
                maxTrailerFields: maxHeaderFields)))
        } else if let length = head.contentLength, length > 0 {
            body.reserveCapacity(length)
            notes = parts.notes
            self.head = consume head
            state = .body(remaining: length)
        } else {
            // No body: the request is complete with its head.
            state = .requestLine
            hasPartialRequest = false
            output(.request(consume head, notes: parts.notes, body: []))
        }
    }

    private mutating func complete(_ output: (consuming Output) -> Void) {
        guard let head else { return }
        let body = self.body
        var notes = HeadNotes()
        swap(&notes, &self.notes)
        self.head = nil
        self.body = []
        state = .requestLine
        hasPartialRequest = false
        output(.request(head, notes: notes, body: body))
    }

    private mutating func fail(_ error: HTTPParseError, _ output: (consuming Output) -> Void) {
        state = .failed
        line = []
        body = []
        output(.failure(error))
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An incremental HTTP/1.1 request parser (RFC 9112): a request line (§3), field lines to a
/// blank line (§5), then a body framed as the fields decide (§6).
///
/// Bytes may arrive in any split, even one at a time: each byte is examined once (line ends
/// are found with a scan of the new bytes only), so a slow or hostile client cannot cause
/// quadratic rescans. Limits are checked as bytes arrive, before anything is buffered past
/// them. After an error the parser stays failed: the connection must answer and close, since
/// the framing of anything that follows cannot be trusted (no request smuggling).
///
/// A line that arrives whole is parsed where it lies in the caller's buffer; only a line split
/// over reads is copied, into `line`. Strings are made once per request part (target, each
/// field's name and value), and the fields that decide the framing are noted as they are
/// parsed (`FieldFacts`), so the head is not searched again at its end. A field block the
/// connection sent before is not read again (`HeadReplay`).
package struct RequestParser {
    package enum Output {
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
    /// The head being read: its request line is filled in place, its fields go to `facts`.
    private var head = Self.emptyHead
    private var facts = FieldFacts()
    /// A head whose body is being read, and its notes.
    private var headAwaitingBody: RequestHead?
    private var notesAwaitingBody = HeadNotes()
    private var body: [UInt8] = []
    private var replay = HeadReplay()

    package init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
        maxRequestLineBytes = limits.maxRequestLineBytes
        maxHeaderBytes = limits.maxHeaderBytes
        maxHeaderFields = limits.maxHeaderFields
    }

    /// True once any byte of a request not yet complete has arrived.
    package private(set) var hasPartialRequest = false

    /// True while the request line or header fields are being read.
    package var isReadingHead: Bool {
        switch state {
        case .requestLine, .headerLines: hasPartialRequest
        default: false
        }
    }

    package var hasFailed: Bool {
        if case .failed = state { return true }
        return false
    }

    /// Consumes `bytes`, reporting each complete request (and any failure) to `output`.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer, _ output: (consuming Output) -> Void) {
        var index = 0
        let count = bytes.count
        replay.bufferStarted()
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
    /// keeps the start of an incomplete one in `line`. After a request line, a field block
    /// the connection sent before is taken whole.
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
            replay.lineSplit()
            return count
        }
        guard line.isEmpty else {
            var carried = line
            line = []
            carried.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            if carried.last == 13 { carried.removeLast() }
            carried.withUnsafeBytes { handle($0, output) }
            if !hasFailed {
                carried.removeAll(keepingCapacity: carried.capacity <= 1024)
                line = carried
            }
            return end + 1
        }
        // The whole line is in this read: parse it where it is.
        let withoutCR = end > start && bytes[end - 1] == 13 ? end - 1 : end
        if withoutCR == start && !readingRequestLine {
            // The blank line ending a field block: kept with what it made, before `finishHead` takes that.
            replay.remember(blockEndingAt: end, in: bytes, facts: facts, headerBytes: headerBytes + 2)
        }
        handle(UnsafeRawBufferPointer(rebasing: bytes[start..<withoutCR]), output)
        if readingRequestLine, case .headerLines = state {
            replay.blockStarts(at: end + 1)
            if let (headerBytes, length) = replay.lookup(blockAt: end + 1, in: bytes, into: &facts) {
                self.headerBytes = headerBytes
                finishHead(output)
                return end + 1 + length
            }
        }
        return end + 1
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

    // MARK: - Request line (RFC 9112 §3)

    /// `method SP request-target SP HTTP-version`.
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
            } else if (byte == UInt8(ascii: "%") || byte >= 0x80) && queryMark == nil {
                // A byte that is not ASCII is not a URI character: the string made of the target
                // repairs it, which moves every offset after it, so such a path takes the general split.
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
        // Filled in place: `head` is fresh here (`finishHead` swapped the last one out), and
        // assigning a whole new value costs an outlined copy and destroy per request.
        head.method = HTTPSyntax.method(method)
        let text = String(decoding: target, as: UTF8.self)
        head.target = plainPath ? ParsedTarget(checkedPlainPath: text, queryOffset: queryMark) : ParsedTarget(text)
        head.version = parsedVersion
        headerBytes = 0
        state = .headerLines
    }

    // MARK: - Field lines (RFC 9112 §5)

    private mutating func parseField(_ line: UnsafeRawBufferPointer, _ output: (consuming Output) -> Void) {
        let index = facts.headers.count
        if case let (name, value, valueRange, kind)? = replay.lookup(line: line, at: index) {
            if index >= maxHeaderFields { return fail(.headersTooLarge("too many header fields"), output) }
            facts.add(name, value, kind: kind, valueBytes: UnsafeRawBufferPointer(rebasing: line[valueRange]))
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
            let kind = FieldFacts.Kind(nameBytes)
            facts.add(name, value, kind: kind, valueBytes: valueBytes)
            replay.remember(line: line, at: index, name: name, value: value, valueRange: field.value, kind: kind)
        }
    }

    // MARK: - Framing (RFC 9112 §6)

    /// Decides the body framing from the header fields (RFC 9112 §6.3), refusing anything ambiguous.
    private mutating func finishHead(_ output: (consuming Output) -> Void) {
        var facts = FieldFacts()
        swap(&facts, &self.facts)
        var head = Self.emptyHead
        swap(&head, &self.head)
        swap(&head.headers, &facts.headers)
        replay.headRead()
        if facts.hostCount > 1 { return fail(.malformed("more than one Host header"), output) }
        if head.version == .http1_1 && facts.hostCount == 0 { return fail(.malformed("HTTP/1.1 request without Host"), output) }

        let lengths = facts.contentLengths
        let codings = facts.transferCodings
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

        if let expectation = facts.expectation {
            guard HTTPHeaders.sameName(expectation, "100-continue") else { return fail(.unsupportedExpectation, output) }
            head.expectsContinue = head.version == .http1_1 && head.hasBody
        }

        if head.expectsContinue { output(.continueExpected(head)) }
        if head.isChunked {
            awaitBody(head, notes: facts.notes)
            state = .chunkedBody(ChunkedCodec.Decoder(limits: .init(
                maxBodyBytes: limits.maxBodyBytes,
                maxTrailerBytes: maxHeaderBytes - headerBytes, // trailers share the header block's budget
                maxTrailerFields: maxHeaderFields)))
        } else if let length = head.contentLength, length > 0 {
            body.reserveCapacity(length)
            awaitBody(head, notes: facts.notes)
            state = .body(remaining: length)
        } else {
            // No body: the request is complete with its head.
            state = .requestLine
            hasPartialRequest = false
            output(.request(consume head, notes: facts.notes, body: []))
        }
    }

    private mutating func awaitBody(_ head: consuming RequestHead, notes: HeadNotes) {
        headAwaitingBody = consume head
        notesAwaitingBody = notes
    }

    private mutating func complete(_ output: (consuming Output) -> Void) {
        guard let head = headAwaitingBody else { return }
        let body = self.body
        let notes = notesAwaitingBody
        headAwaitingBody = nil
        notesAwaitingBody = HeadNotes()
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

    /// Between requests: nothing allocated.
    private static var emptyHead: RequestHead {
        RequestHead(
            method: .get, target: .empty, version: .http1_1, headers: HTTPHeaders(),
            contentLength: nil, isChunked: false, expectsContinue: false)
    }
}

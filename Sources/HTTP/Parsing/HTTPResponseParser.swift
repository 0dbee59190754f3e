// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NetCore
import StreamServiceText

/// Incremental parser for one HTTP/1.1 response on a client connection: status line,
/// headers, then a body framed by `Content-Length`, chunked encoding, or connection close.
///
/// An answer that arrives in one read (a small image, most API answers) is parsed where it lies
/// in the read's buffer: the head on its bytes with the request parser's pieces
/// (`HTTPSyntax.field`, `ConnectionOptions`), its field lines copied once and kept as bytes
/// (`ReceivedFields`), the body copied once. Only bytes that must wait for more are kept in
/// `buffer`: no `String` per head line, no copy of the read before parsing.
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
        case length(remaining: Int)
        case chunked(ChunkedCodec.Decoder)
        case untilClose
    }

    private enum Phase {
        case head
        case body(Framing)
        case done
    }

    /// Bytes received but not yet consumed: an incomplete head.
    private var buffer: [UInt8] = []
    private var phase = Phase.head
    private var status = 0
    private var fields = ReceivedFields()
    /// The first `Content-Length` field's value, read as the fields are parsed (nil: none, or not a number).
    private var contentLength: Int?
    /// The first `Content-Encoding` field's value is `gzip`.
    private var gzipCoded = false
    /// The head has a `Transfer-Encoding` field, and what its `Connection` fields said, noted as
    /// the fields are read: most answers have neither, and looking for their tokens in every
    /// field cost three more scans of the head.
    private var hasTransferEncodingField = false
    private var connectionOptions = ConnectionOptions()
    /// The `x-ratelimit-*` fields, noted as the fields are read.
    private var rateLimit = RateLimitReading()
    private var body: [UInt8] = []
    private var keepAlive = true
    private let expectsBody: Bool
    /// Heads are read by `parseWholeHead` where it can; false leaves every head to its slow twin
    /// (`headEnd`, then `parseHead`), for the tests that compare the two.
    private let onePassHeads: Bool

    /// - Parameters:
    ///   - requestMethod: a HEAD answer never has a body.
    ///   - onePassHeads: false reads every head the slow way (tests).
    init(requestMethod: HTTPMethod = .get, onePassHeads: Bool = true) {
        expectsBody = requestMethod != .head
        self.onePassHeads = onePassHeads
    }

    mutating func feed(_ bytes: [UInt8]) throws -> Progress {
        try bytes.withUnsafeBytes { try feed($0) }
    }

    /// Consumes one read: parses in place what it can and keeps only an incomplete head.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) throws -> Progress {
        guard !buffer.isEmpty else {
            let (consumed, progress) = try advance(bytes)
            if consumed < bytes.count, case .needMore = progress {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[consumed...]))
            }
            return progress
        }
        var pending = buffer
        buffer = []
        pending.append(contentsOf: bytes)
        let (consumed, progress) = try pending.withUnsafeBytes { try advance($0) }
        if consumed < pending.count, case .needMore = progress {
            pending.removeSubrange(..<consumed)
            buffer = pending
        }
        return progress
    }

    /// Parses as far as `input` goes: how many bytes it used, and whether the answer is complete.
    /// An incomplete head uses none of its bytes (the caller keeps them for the next read).
    private mutating func advance(_ input: UnsafeRawBufferPointer) throws -> (consumed: Int, progress: Progress) {
        var index = 0
        while true {
            switch phase {
            case .head:
                if onePassHeads, let next = try parseWholeHead(input, from: index) {
                    index = next
                    if let done = try startBody(trailing: input.count - index) { return (index, done) }
                    continue
                }
                guard let end = Self.headEnd(in: input, from: index) else {
                    if input.count - index > Self.maxHeaderBytes { throw Failure.malformed("header block too large") }
                    return (index, .needMore)
                }
                if end - index > Self.maxHeaderBytes { throw Failure.malformed("header block too large") }
                try parseHead(UnsafeRawBufferPointer(rebasing: input[index..<end]))
                index = end + 4
                if let done = try startBody(trailing: input.count - index) { return (index, done) }
            case .body(.length(let remaining)):
                let take = min(remaining, input.count - index)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[index..<(index + take)]))
                index += take
                guard take == remaining else {
                    phase = .body(.length(remaining: remaining - take))
                    return (index, .needMore)
                }
                return (index, try finish(trailing: input.count - index))
            case .body(.chunked(var decoder)):
                phase = .done // while the decoder is out of `phase`, so it is not copied on write
                let (next, outcome) = decoder.decode(input, from: index, into: &body)
                index = next
                switch outcome {
                case .needMore:
                    phase = .body(.chunked(decoder))
                    return (index, .needMore)
                case .done:
                    return (index, try finish(trailing: input.count - index))
                case .failed(let error):
                    throw Failure.malformed("chunked body: \(error)")
                }
            case .body(.untilClose):
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[index...]))
                return (input.count, .needMore)
            case .done:
                // Bytes after a complete answer: nothing asked for them.
                return (input.count, .needMore)
            }
        }
    }

    /// The peer closed the connection: completes a close-delimited body, otherwise the
    /// answer was cut short.
    mutating func connectionClosed() throws -> HTTPClientResponse {
        if case .body(.untilClose) = phase {
            keepAlive = false
            if case .complete(let response, _) = try finish(trailing: 0) { return response }
        }
        throw Failure.truncated
    }

    /// Status line and fields, without the blank line that ends them. The fields are kept as
    /// bytes (`ReceivedFields`); the few this parser needs are read from the bytes here.
    /// The slow twin of `parseWholeHead`, for a head that walk leaves.
    private mutating func parseHead(_ head: UnsafeRawBufferPointer) throws {
        let statusEnd = Self.firstCRLF(in: head, from: 0) ?? head.count
        try parseStatusLine(UnsafeRawBufferPointer(rebasing: head[..<statusEnd]))
        let lines = UnsafeRawBufferPointer(rebasing: head[min(statusEnd + 2, head.count)...])
        var builder = ReceivedFields.Builder(lines: lines)
        var notes = HeadFieldNotes()
        var start = 0
        while start < lines.count {
            guard let field = Self.fieldLine(in: lines, from: start) else { throw Failure.malformed("bad header field") }
            defer { start = field.end + 2 }
            if field.name.isEmpty { continue }
            notes.note(UnsafeRawBufferPointer(rebasing: lines[field.name]), value: field.value, in: lines)
            builder.add(name: field.name, value: field.value)
        }
        fields = builder.build()
        take(notes, lines: lines)
    }

    /// Most fields an answer may have for `parseWholeHead`, whose positions it keeps on the stack
    /// until the head's end: an API answer has 7 to 15. One with more goes to the slow twin.
    static let onePassMaxFields = 32

    /// The head at `start` of `input` read in one walk over its lines, its end being the first
    /// empty one: `headEnd` searched each line's CRLF with `memchr` before `parseHead` walked the
    /// lines again, and the builder zeroed room for 20 fields' positions and stored each with a
    /// check of its array; here the positions wait on the stack and are stored once, with the
    /// lines (`ReceivedFields(lines:spans:count:)`): ~560 instructions an answer, ~18.6 k a
    /// `/users?limit=30` request (callgrind). Returns the index after the head's blank line; nil,
    /// having changed nothing, when the walk cannot tell: the head is not all here, a line is not
    /// plain (`plainFieldLine`), there are more than `onePassMaxFields` fields, or the head is too
    /// large. `headEnd` and `parseHead`, its slow twin, then decide; the two agree wherever this
    /// answers (HTTPResponseParserTests, scripts/fuzz-response-parser).
    private mutating func parseWholeHead(_ input: UnsafeRawBufferPointer, from start: Int) throws -> Int? {
        guard let statusEnd = Self.firstCRLF(in: input, from: start) else { return nil }
        let lines = UnsafeRawBufferPointer(rebasing: input[(statusEnd + 2)...])
        return try withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 4 * Self.onePassMaxFields) { spans -> Int? in
            var notes = HeadFieldNotes()
            var count = 0
            var lineStart = 0
            // Each line a plain field line ending in CRLF, up to an empty line.
            while lineStart + 1 >= lines.count || lines[lineStart] != 13 || lines[lineStart + 1] != 10 {
                guard count < Self.onePassMaxFields, let field = Self.plainFieldLine(in: lines, from: lineStart), field.end < lines.count else {
                    return nil
                }
                notes.note(UnsafeRawBufferPointer(rebasing: lines[field.name]), value: field.value, in: lines)
                spans[4 * count] = UInt32(truncatingIfNeeded: field.name.lowerBound).littleEndian
                spans[4 * count + 1] = UInt32(truncatingIfNeeded: field.name.upperBound).littleEndian
                spans[4 * count + 2] = UInt32(truncatingIfNeeded: field.value.lowerBound).littleEndian
                spans[4 * count + 3] = UInt32(truncatingIfNeeded: field.value.upperBound).littleEndian
                count += 1
                lineStart = field.end + 2
            }
            // The CR of the head's CRLFCRLF, as `headEnd` finds it.
            let end = statusEnd + lineStart
            guard end - start <= Self.maxHeaderBytes else { return nil }
            try parseStatusLine(UnsafeRawBufferPointer(rebasing: input[start..<statusEnd]))
            // The field lines without the CRLF ending the last, as `parseHead` has them.
            let fieldLines = UnsafeRawBufferPointer(rebasing: lines[..<max(0, lineStart - 2)])
            fields = ReceivedFields(lines: fieldLines, spans: UnsafeRawBufferPointer(start: spans.baseAddress, count: 4 * 4 * count), count: count)
            take(notes, lines: fieldLines)
            return end + 4
        }
    }

    /// What the head's fields said, as the parser keeps it.
    private mutating func take(_ notes: HeadFieldNotes, lines: UnsafeRawBufferPointer) {
        if let value = notes.contentLength { contentLength = Self.integer(UnsafeRawBufferPointer(rebasing: lines[value])) }
        if let value = notes.contentEncoding { gzipCoded = HTTPSyntax.sameToken(UnsafeRawBufferPointer(rebasing: lines[value]), "gzip") }
        hasTransferEncodingField = notes.hasTransferEncoding
        connectionOptions = notes.connectionOptions
        rateLimit = notes.rateLimit
        if connectionOptions.close { keepAlive = false }
        if connectionOptions.keepAlive { keepAlive = true }
    }

    /// One field line of a head's field lines: where its name and value lie in them (an empty
    /// name for an empty line) and where it ends (its CR, or the end of the lines).
    struct FieldLine: Equatable {
        let name: Range<Int>
        let value: Range<Int>
        let end: Int
    }

    /// The field line at `start` of `lines` (CRLF-separated, the last without one); nil for a bad
    /// one. A plain line (a token, a colon, a value without a tab or control byte, CRLF) is read in
    /// one pass (`plainFieldLine`): its end, its name and its value found by the same scan, where
    /// the line's end was searched with `memchr` and then its colon and every byte checked again
    /// (about 330 instructions a line, seven lines an answer). Anything else (an empty line, obs-fold,
    /// a tab, a bare CR or LF, a bad byte) goes to `checkedFieldLine`, its slow twin, which decides;
    /// the two agree wherever the fast one answers (HTTPResponseParserTests, scripts/fuzz-response-parser).
    @inline(__always)
    static func fieldLine(in lines: UnsafeRawBufferPointer, from start: Int) -> FieldLine? {
        if let line = plainFieldLine(in: lines, from: start) { return line }
        return checkedFieldLine(in: lines, from: start)
    }

    /// The slow twin: the line's end by `firstCRLF`, then `HTTPSyntax.field` on the line.
    static func checkedFieldLine(in lines: UnsafeRawBufferPointer, from start: Int) -> FieldLine? {
        let end = firstCRLF(in: lines, from: start) ?? lines.count
        let line = UnsafeRawBufferPointer(rebasing: lines[start..<end])
        if line.isEmpty { return FieldLine(name: start..<start, value: start..<start, end: end) }
        // RFC 9112 §5: the name is a token; a value holds no CR, LF or NUL (fuzzing found a bare CR accepted in a name).
        guard case .success(let field) = HTTPSyntax.field(in: line) else { return nil }
        return FieldLine(name: (start + field.name.lowerBound)..<(start + field.name.upperBound),
                         value: (start + field.value.lowerBound)..<(start + field.value.upperBound), end: end)
    }

    /// A plain field line in one pass: token bytes up to a colon, blanks, then value bytes eight
    /// at a time up to the first control byte or DEL, which must be the CR of a CRLF (or the lines'
    /// end). Nil for anything else, not only for bad lines: the caller asks `checkedFieldLine`.
    static func plainFieldLine(in lines: UnsafeRawBufferPointer, from start: Int) -> FieldLine? {
        guard let base = lines.baseAddress else { return nil }
        let count = lines.count
        var index = start
        // Letters, digits and `-` (most names are nothing else) eight a step, then token bytes one by one.
        while index + 8 <= count {
            let flags = letterDigitOrDash(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            if flags != 0x8080_8080_8080_8080 {
                index += ByteWords.firstFlagged(~flags & 0x8080_8080_8080_8080)
                break
            }
            index += 8
        }
        while index < count, HTTPSyntax.isTokenCharacter(base.load(fromByteOffset: index, as: UInt8.self)) { index += 1 }
        guard index > start, index < count, base.load(fromByteOffset: index, as: UInt8.self) == UInt8(ascii: ":") else { return nil }
        let nameEnd = index
        index += 1
        while index < count, case let byte = base.load(fromByteOffset: index, as: UInt8.self), byte == 32 || byte == 9 { index += 1 }
        let valueStart = index
        index = firstControl(in: base, from: index, count: count)
        let end: Int
        if index == count {
            end = count
        } else if base.load(fromByteOffset: index, as: UInt8.self) == 13, index + 1 < count, base.load(fromByteOffset: index + 1, as: UInt8.self) == 10 {
            end = index
        } else {
            return nil
        }
        // No tab after the leading blanks (it would have stopped the scan): spaces alone trail.
        var valueEnd = end
        while valueEnd > valueStart, base.load(fromByteOffset: valueEnd - 1, as: UInt8.self) == 32 { valueEnd -= 1 }
        return FieldLine(name: start..<nameEnd, value: valueStart..<valueEnd, end: end)
    }

    /// Flags (bit 7 of each byte) the bytes of `word` that are ASCII letters, digits or `-`: range
    /// checks on the seven low bits, which carry into no neighbour; a byte of 128 or more is never flagged.
    @inline(__always)
    static func letterDigitOrDash(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        let low = word & ~high
        /// Bit 7 set where a byte of `bytes` (each below 128) lies in `first...last`.
        func within(_ bytes: UInt64, _ first: UInt8, _ last: UInt8) -> UInt64 {
            (bytes &+ ones &* UInt64(0x80 - first)) & (ones &* UInt64(0x80 + UInt16(last)) &- bytes)
        }
        // Setting bit 5 lower-cases a letter and makes no other byte a lower-case letter.
        let folded = low | ones &* 0x20
        let flags = within(folded, UInt8(ascii: "a"), UInt8(ascii: "z")) | within(low, UInt8(ascii: "0"), UInt8(ascii: "9"))
            | within(low, UInt8(ascii: "-"), UInt8(ascii: "-"))
        return flags & ~word & high
    }

    /// The index of the first byte at or after `from` below 32 (a control byte, the tab among
    /// them) or DEL, or `count`: eight bytes a step while eight remain.
    @inline(__always)
    private static func firstControl(in base: UnsafeRawPointer, from: Int, count: Int) -> Int {
        var index = from
        while index + 8 <= count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            // The lowest flagged byte is a true one (a borrow only flags bytes above it).
            let flags = ByteWords.below(word, 0x20) | ByteWords.equal(word, 0x7F)
            if flags != 0 { return index + ByteWords.firstFlagged(flags) }
            index += 8
        }
        while index < count {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte < 32 || byte == 127 { return index }
            index += 1
        }
        return count
    }

    /// The value `Int(String)` reads from these bytes: an optional sign and decimal digits; nil
    /// for anything else or a number out of range.
    private static func integer(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            negative = first == UInt8(ascii: "-")
            index = 1
        }
        guard index < bytes.count else { return nil }
        var value = 0
        while index < bytes.count {
            let digit = bytes[index] &- 48
            guard digit <= 9 else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = negative ? shifted.subtractingReportingOverflow(Int(digit)) : shifted.addingReportingOverflow(Int(digit))
            guard !overflowA, !overflowB else { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// `HTTP/1.x SP 3DIGIT [SP reason]` (RFC 9112 §4); the reason phrase is not kept.
    private mutating func parseStatusLine(_ line: UnsafeRawBufferPointer) throws {
        guard line.count >= 12, let version = HTTPSyntax.version(UnsafeRawBufferPointer(rebasing: line[..<8])), version.major == 1,
              line[8] == 32, line.count == 12 || line[12] == 32
        else { throw Failure.malformed("bad status line") }
        var code = 0
        for index in 9..<12 {
            let digit = line[index] &- 48
            guard digit <= 9 else { throw Failure.malformed("bad status line") }
            code = code * 10 + Int(digit)
        }
        guard (100...599).contains(code) else { throw Failure.malformed("bad status line") }
        status = code
        keepAlive = version.minor != 0
    }

    /// Index of the CR of the first CRLFCRLF in `bytes` at or after `from`, which ends the head.
    private static func headEnd(in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        var from = from
        while let crlf = firstCRLF(in: bytes, from: from) {
            if crlf + 3 < bytes.count, bytes[crlf + 2] == 13, bytes[crlf + 3] == 10 { return crlf }
            from = crlf + 2
        }
        return nil
    }

    /// Index of the CR of the first CRLF in `bytes` at or after `from`: `memchr` for each LF.
    private static func firstCRLF(in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var index = from + 1
        while index < bytes.count, let found = memchr(base + index, 10, bytes.count - index) {
            let lf = UnsafeRawPointer(found) - base
            if bytes[lf - 1] == 13 { return lf - 1 }
            index = lf + 1
        }
        return nil
    }

    private mutating func startBody(trailing: Int) throws -> Progress? {
        if (100..<200).contains(status) {
            // An interim answer (100 Continue, 103 Early Hints): the final one follows, maybe in
            // the same read, so parsing goes on (fuzzing found it waiting for bytes already here).
            status = 0
            fields = ReceivedFields()
            contentLength = nil
            gzipCoded = false
            hasTransferEncodingField = false
            connectionOptions = ConnectionOptions()
            rateLimit = RateLimitReading()
            return nil
        }
        if !expectsBody || status == 204 || status == 304 {
            return try finish(trailing: trailing)
        }
        if hasTransferEncodingField, fields.headers.containsToken("chunked", in: "Transfer-Encoding") {
            phase = .body(.chunked(ChunkedCodec.Decoder(limits: Self.chunkedLimits)))
        } else if let length = contentLength, length >= 0 {
            // Reserved up to 1 MiB: a length is a claim, not yet bytes.
            body.reserveCapacity(min(length, 1 << 20))
            phase = .body(.length(remaining: length))
        } else {
            phase = .body(.untilClose)
            keepAlive = false
        }
        return nil
    }

    /// - Parameter trailing: bytes received after the answer's end; a connection with any is
    ///   not reused (they answer nothing this client asked).
    private mutating func finish(trailing: Int) throws -> Progress {
        phase = .done
        // No body (HEAD, 204, 304, or empty): the coding names a representation that is not here.
        guard !body.isEmpty, gzipCoded else {
            var response = HTTPClientResponse(status: HTTPStatus(code: status), received: fields, body: body)
            response.rateLimit = rateLimit.fields
            return .complete(response, reusable: keepAlive && trailing == 0)
        }
        guard let inflated = try? Gzip.decompress(body) else { throw Failure.malformed("bad gzip body") }
        var headers = fields.headers
        headers.remove(name: "Content-Encoding")
        headers.replaceOrAdd(name: "Content-Length", value: String(inflated.count))
        var response = HTTPClientResponse(status: HTTPStatus(code: status), headers: headers, body: inflated)
        response.rateLimit = rateLimit.fields
        return .complete(response, reusable: keepAlive && trailing == 0)
    }
}

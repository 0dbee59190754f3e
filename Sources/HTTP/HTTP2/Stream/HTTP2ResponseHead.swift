// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A response's header block checked as RFC 9113 §8.3.2 and §8.2 require: `:status` alone among the
/// pseudo-headers and first, lowercase names, no connection-specific field, one content-length.
/// The same walk reads what the client's answer needs, as the HTTP/1.1 response parser does in its
/// own: the content coding and the rate-limit fields.
struct HTTP2ResponseHead: Sendable {
    let status: Int
    /// The regular fields, as received, as the client's answer carries them (`:status` left out).
    let received: ReceivedFields
    /// The regular fields as a list of `String`s.
    var fields: HTTPHeaders { received.headers }
    let contentLength: Int?
    /// The first content-encoding field says gzip (any case): the client inflates the body.
    let gzipCoded: Bool
    /// The `x-ratelimit-*` fields, noted by `RateLimitReading` as the HTTP/1.1 parser notes them.
    let rateLimit: RateLimitFields

    /// 1xx: an interim answer (103 Early Hints, 100 Continue); the final one follows.
    var isInterim: Bool { status < 200 }

    /// The head of a block decoded into bytes (`HPACKDecoder.decodeBytes`), read where the bytes
    /// lie: the fast path. The block's storage becomes the answer's `ReceivedFields` (its `:status`
    /// dropped in place). Anything it does not pass outright (a field to refuse, a length or
    /// status that is not plain digits) goes to `init(validating:checked:)` over the block's
    /// `String`s, its slow twin, which says what is wrong (HTTP2ResponseHeadTests compares the two).
    init(validatingBytes block: consuming HPACKFieldBytes) throws(HTTP2MalformedMessage) {
        let reading = block.storage.withUnsafeBytes { Self.read($0, checked: block.checkedFields) }
        guard let reading else {
            self = try HTTP2ResponseHead(validating: block.fields, checked: block.checkedFields)
            return
        }
        status = reading.status
        contentLength = reading.contentLength
        gzipCoded = reading.gzipCoded
        rateLimit = reading.rateLimit.fields
        block.dropFirst()
        received = ReceivedFields(consume block)
    }

    private struct Reading {
        var status = 0
        var contentLength: Int?
        var gzipCoded = false
        var contentEncodingSeen = false
        var rateLimit = RateLimitReading()
    }

    /// What the head says, read from a block's storage; nil for anything but a well-formed head
    /// whose numbers are plain digits.
    private static func read(_ raw: UnsafeRawBufferPointer, checked: UInt64) -> Reading? {
        let fields = HPACKFieldBytes.Spans(raw)
        let count = fields.count
        guard count > 0 else { return nil }
        var reading = Reading()
        let (statusName, statusValue) = fields.field(0)
        // `:status` exactly (pseudo-header names are not case-folded, nor checked as a regular name is).
        guard Self.isName(statusName, ":status"), statusValue.count == 3,
              let code = HTTPSyntax.digits(statusValue), (100...999).contains(code), code != 101 else { return nil }
        reading.status = code
        for index in 1..<count {
            let (name, value) = fields.field(index)
            guard let first = name.first, first != UInt8(ascii: ":") else { return nil }
            if !HTTP2FieldRules.isChecked(index, in: checked) {
                guard HTTP2FieldRules.nameFault(name.assumingMemoryBound(to: UInt8.self)) == nil,
                      HTTP2FieldRules.valueFault(value.assumingMemoryBound(to: UInt8.self)) == nil else { return nil }
            }
            // Names are lowercase tokens here (checked): compared by length first, then exactly.
            switch name.count {
            case 7 where isName(name, "upgrade"): return nil
            case 10 where isName(name, "connection") || isName(name, "keep-alive"): return nil
            case 14 where isName(name, "content-length"):
                guard let length = HTTPSyntax.digits(value), reading.contentLength == nil || reading.contentLength == length else { return nil }
                reading.contentLength = length
            case 16 where isName(name, "proxy-connection"): return nil
            case 16 where isName(name, "content-encoding"):
                if !reading.contentEncodingSeen {
                    reading.contentEncodingSeen = true
                    reading.gzipCoded = HTTPSyntax.sameToken(value, "gzip")
                }
            case 17 where isName(name, "transfer-encoding"): return nil
            case 17, 21:
                if let kind = RateLimitReading.field(named: name, same: isName) { reading.rateLimit.note(kind, value: value) }
            default:
                break
            }
        }
        return reading
    }

    /// Whether `name` is `expected`, byte for byte, eight bytes at a time: a head's names are
    /// lowercase once checked, so none is case-folded. `HTTPSyntax.sameToken`, which folds each
    /// byte (about 300 instructions more a GitHub-style head, Benchmarks/README.md), is its slow
    /// twin for lowercase names (HTTP2ResponseHeadTests); generic `elementsEqual` cost about 10
    /// instructions a byte.
    @inline(__always)
    static func isName(_ name: UnsafeRawBufferPointer, _ expected: StaticString) -> Bool {
        let count = expected.utf8CodeUnitCount
        guard name.count == count else { return false }
        let expected = UnsafeRawPointer(expected.utf8Start)
        var index = 0
        while index &+ 8 <= count {
            if name.loadUnaligned(fromByteOffset: index, as: UInt64.self) != expected.loadUnaligned(fromByteOffset: index, as: UInt64.self) { return false }
            index &+= 8
        }
        while index < count {
            if name[index] != expected.load(fromByteOffset: index, as: UInt8.self) { return false }
            index &+= 1
        }
        return true
    }

    /// - Parameter checked: as for `HTTP2RequestHead.init(validating:checked:)`: the decoder's
    ///   `checkedFields`, whose fields are not checked again; 0 (the slow twin) checks every field.
    init(validating block: consuming [(name: String, value: String)], checked: UInt64 = 0) throws(HTTP2MalformedMessage) {
        var status: Int?
        var contentLength: Int?
        var contentEncoding: String?
        var rateLimit = RateLimitReading()
        var regularSeen = false
        for (index, (name, value)) in block.enumerated() {
            if HTTP2FieldRules.withBytes(of: name, { $0.first == UInt8(ascii: ":") }) {
                guard !regularSeen else { throw .init("pseudo-header \(name) after a regular field") }
                guard name == ":status" else { throw .init("pseudo-header \(name) is not a response's") }
                guard status == nil else { throw .init(":status twice") }
                guard value.utf8.count == 3, let code = Self.integer(value), (100...999).contains(code) else { throw .init(":status \(value) is not three digits") }
                status = code
                continue
            }
            if !HTTP2FieldRules.isChecked(index, in: checked) {
                try HTTP2RequestHead.checkName(name)
                try HTTP2RequestHead.checkValue(value, of: name)
            }
            if HTTP2RequestHead.isConnectionSpecific(name) { throw .init("connection-specific field \(name)") }
            // Names are lowercase here (checkName): one comparison each, by length first.
            switch name.utf8.count {
            case 14 where name == "content-length":
                guard let length = Self.integer(value), length >= 0, contentLength == nil || contentLength == length else {
                    throw .init("content-length \(value) is not one non-negative number")
                }
                contentLength = length
            case 16 where contentEncoding == nil && name == "content-encoding":
                contentEncoding = value
            case 17, 21:
                HTTP2FieldRules.withBytes(of: name) { name in
                    guard let kind = RateLimitReading.field(named: UnsafeRawBufferPointer(name)) else { return }
                    HTTP2FieldRules.withBytes(of: value) { rateLimit.note(kind, value: UnsafeRawBufferPointer($0)) }
                }
            default:
                break
            }
            regularSeen = true
        }
        guard let status else { throw .init(":status missing") }
        // 101 is HTTP/1.1's upgrade, which HTTP/2 has none of (§8.6).
        guard status != 101 else { throw .init("101 Switching Protocols over HTTP/2") }
        self.status = status
        // `:status` came first (no pseudo-header after a regular field, none but one `:status`).
        received = ReceivedFields(listing: block.dropFirst())
        self.contentLength = contentLength
        gzipCoded = contentEncoding.map { HTTPHeaders.sameName($0, "gzip") } ?? false
        self.rateLimit = rateLimit.fields
    }

    /// `Int(value)`: read from the bytes when they are 1 to 18 decimal digits (a status, a length),
    /// as `Int(_:)` reads them; anything else goes to `Int(_:)`, the slow twin (HTTP2ResponseHeadTests
    /// compares the two). Generic over `StringProtocol`, `Int(_:)` cost about 250 instructions a field.
    static func integer(_ value: String) -> Int? {
        HTTP2FieldRules.withBytes(of: value) { HTTPSyntax.digits(UnsafeRawBufferPointer($0)) } ?? Int(value)
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One request for `HTTPClient`, fully addressed by its URL (`http` or `https`).
///
/// Its fields live in one box that copies share until one of them changes a field: an exchange
/// copies its request about three times (into the send's closure, the exchange, the head's
/// encoding), and each copy of the fields retained and released about ten references (the
/// figure: Benchmarks/README.md).
public struct HTTPClientRequest: Sendable, Equatable {
    private var storage: Storage

    /// The request's method.
    public var method: HTTPMethod {
        get { storage.method }
        set { unique().method = newValue }
    }
    /// The absolute `http://` or `https://` URL the request goes to.
    public var url: URL {
        get { storage.url }
        set {
            storage = Storage(
                method: method, url: newValue, parts: URLPartsMemo.shared.shared(reading: newValue), headers: headers, extraHeaders: extraHeaders,
                traceParent: traceParent, body: storage.body, lentBody: storage.lentBody, timeout: timeout)
        }
    }
    /// Fields sent after `Host`, the same list request after request (its encoding is kept for reuse).
    public var headers: HTTPHeaders {
        get { storage.headers }
        set { unique().headers = newValue }
    }
    /// Fields sent after `headers`, encoded for this request alone: values that change from
    /// request to request (a cached answer's `If-None-Match`), so that `headers`, the same list
    /// request after request, keep one encoding (`RequestFieldsCache`).
    public var extraHeaders: HTTPHeaders {
        get { storage.extraHeaders }
        set { unique().extraHeaders = newValue }
    }
    /// A `traceparent` field sent after `extraHeaders` (which then hold none), written into the
    /// head straight from the ids: a traced exchange's `traceparent` as a string in
    /// `extraHeaders` cost the string and a one-field list, about 800 instructions a CLIENT span
    /// (every upstream exchange of a traced request). `sentExtraHeaders` lists it as that field (the slow twin).
    public var traceParent: TraceParentIDs? {
        get { storage.traceParent }
        set { unique().traceParent = newValue }
    }
    /// Sent after the head with its `Content-Length` (an empty POST, PUT or PATCH says 0); a
    /// `lentBody`'s pieces joined (a copy) when there is one. Set, it replaces a lent body.
    public var body: [UInt8] {
        get {
            guard let lent = storage.lentBody else { return storage.body }
            var joined: [UInt8] = []
            joined.reserveCapacity(lent.count)
            lent.forEachPiece { joined.append(contentsOf: $0) }
            return joined
        }
        set {
            let storage = unique()
            storage.body = newValue
            storage.lentBody = nil
        }
    }
    /// The body sent from its pieces where they lie, in place of `body` (which is then empty):
    /// an OTLP batch framed around its spans' own buffer, with no array made of it.
    public var lentBody: (any LentRequestBody)? {
        get { storage.lentBody }
        set {
            let storage = unique()
            storage.lentBody = newValue
            if newValue != nil { storage.body = [] }
        }
    }
    /// The body's size: `body.count` without joining a lent body's pieces.
    var bodyCount: Int { storage.lentBody?.count ?? storage.body.count }

    /// Hands `piece` the body's bytes where they lie: a lent body's pieces in order, or `body` (nothing when empty).
    func forEachBodyPiece(_ piece: (UnsafeRawBufferPointer) -> Void) {
        if let lent = storage.lentBody { return lent.forEachPiece(piece) }
        guard !storage.body.isEmpty else { return }
        storage.body.withUnsafeBytes(piece)
    }
    /// The whole exchange's limit, from `send`'s subscription to the answer's end (a wait for a
    /// connection and the connect included): past it the exchange is abandoned as a dispose
    /// abandons it, and fails with `HTTPClientError.timedOut`. Nil: no limit but the connect timeout.
    ///
    /// The client keeps it on the caller's loop, as `timeout` after `send` would, without that
    /// stage: a caller that bounds every exchange saves a stage per exchange (the figure:
    /// Benchmarks/README.md).
    public var timeout: Duration? {
        get { storage.timeout }
        set { unique().timeout = newValue }
    }

    /// A request for `url` with these fields and `body` (sent with its `Content-Length`), or
    /// `lentBody` in its place when given, abandoned after `timeout` when one is given.
    public init(
        method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = HTTPHeaders(), extraHeaders: HTTPHeaders = HTTPHeaders(),
        traceParent: TraceParentIDs? = nil, body: [UInt8] = [], lentBody: (any LentRequestBody)? = nil, timeout: Duration? = nil
    ) {
        storage = Storage(
            method: method, url: url, parts: URLPartsMemo.shared.shared(reading: url), headers: headers, extraHeaders: extraHeaders,
            traceParent: traceParent, body: lentBody == nil ? body : [], lentBody: lentBody, timeout: timeout)
    }

    /// `extraHeaders` with `traceParent` as the `traceparent` field it is sent as: what a head
    /// written by appending (a URL only Foundation parses) and HTTP/2 send, and the slow twin of
    /// the parsed URL's head (the tests hold the two to the same bytes).
    var sentExtraHeaders: HTTPHeaders {
        guard let traceParent else { return extraHeaders }
        var fields = extraHeaders
        fields.replaceOrAdd(name: TraceParentIDs.fieldName, value: traceParent.traceparent)
        return fields
    }

    /// The box, this request's own before a change.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    public static func == (lhs: HTTPClientRequest, rhs: HTTPClientRequest) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.method == rhs.method && lhs.url == rhs.url && lhs.headers == rhs.headers && lhs.extraHeaders == rhs.extraHeaders
                && lhs.traceParent == rhs.traceParent && lhs.body == rhs.body && lhs.timeout == rhs.timeout)
    }

    /// The fields, changed only through the one request holding the box (`unique()`), so no
    /// other access can overlap a change: they skip run-time exclusivity checks, which cost about
    /// as much as the copies the box saves (the figure: Benchmarks/README.md).
    // @unchecked: changed only by its one holder (isKnownUniquelyReferenced), as Array's buffer is; shared boxes are only read.
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var method: HTTPMethod
        let url: URL
        /// A `let`, so a head's writer reads the parts where they lie: bound from a `var`, the
        /// parts (two strings) were copied twice per exchange, ~560 instructions. A new URL
        /// makes a new box. Read after `parts.scanned` (false: Foundation answers), not through an
        /// `Optional<URLParts>` (see `URLParts.scanned`). Shared with the memo's slot
        /// (`URLPartsMemo.shared(reading:)`): one reference retained, not the parts' two strings.
        /// Read as `shared.parts` (a `let` of a `let`): through a computed `parts`, the head's
        /// writer copied them again (~160 instructions an exchange).
        let shared: URLParts.Shared
        @exclusivity(unchecked) var headers: HTTPHeaders
        @exclusivity(unchecked) var extraHeaders: HTTPHeaders
        @exclusivity(unchecked) var traceParent: TraceParentIDs?
        @exclusivity(unchecked) var body: [UInt8]
        @exclusivity(unchecked) var lentBody: (any LentRequestBody)?
        @exclusivity(unchecked) var timeout: Duration?

        init(
            method: HTTPMethod, url: URL, parts: URLParts.Shared, headers: HTTPHeaders, extraHeaders: HTTPHeaders, traceParent: TraceParentIDs?,
            body: [UInt8], lentBody: (any LentRequestBody)?, timeout: Duration?
        ) {
            self.timeout = timeout
            self.method = method
            self.url = url
            shared = parts
            self.headers = headers
            self.extraHeaders = extraHeaders
            self.traceParent = traceParent
            self.body = body
            self.lentBody = lentBody
        }

        func copy() -> Storage {
            Storage(
                method: method, url: url, parts: shared, headers: headers, extraHeaders: extraHeaders, traceParent: traceParent, body: body,
                lentBody: lentBody, timeout: timeout)
        }
    }

    /// A request for `url` (`http://…` or `https://…`); nil when it is not a URL.
    public init?(method: HTTPMethod = .get, url: String, headers: HTTPHeaders = HTTPHeaders()) {
        guard let url = URL(string: url) else { return nil }
        self.init(method: method, url: url, headers: headers)
    }

    /// The scheme compared without a lower-cased copy: asked twice per exchange (origin, port).
    public var isSecure: Bool { storage.shared.parts.scanned ? storage.shared.parts.secure : url.scheme.map { HTTPHeaders.sameName($0, "https") } ?? false }
    /// The URL's host (`127.0.0.1` when it has none).
    public var host: String { storage.shared.parts.scanned ? storage.shared.parts.host : url.host ?? "127.0.0.1" }
    /// The URL's port, or the scheme's default (80, 443).
    public var port: Int { explicitPort ?? (isSecure ? 443 : 80) }
    private var explicitPort: Int? { storage.shared.parts.scanned ? storage.shared.parts.port : url.port }

    /// `isSecure`, `host` and `port` read at once, the parts' flag tested once (an exchange's
    /// origin: `ConnectionPool.Origin.Parts`); each read apart tested it again, ~90 instructions in all.
    var origin: (secure: Bool, host: String, port: Int) {
        guard storage.shared.parts.scanned else { return (isSecure, host, port) }
        let secure = storage.shared.parts.secure
        return (secure, storage.shared.parts.host, storage.shared.parts.port ?? (secure ? 443 : 80))
    }

    /// Path plus query, as sent on the request line: read from the URL's own parse, where
    /// `URLComponents` parsed the string again on every exchange.
    public var target: String {
        if storage.shared.parts.scanned { return storage.shared.parts.targetString }
        let (path, query) = targetParts
        return query.isEmpty ? String(path) : path + "?" + query
    }

    /// `body` over `target`'s bytes, written from the URL's parts onto the stack without a
    /// `String` (the HTTP/2 client's `:path`; `target` cost about 600 instructions an exchange:
    /// Benchmarks/README.md); `target`'s own UTF-8 otherwise, its slow twin (URLPartsTests).
    func withTargetBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        // Through the box's parts where they lie: bound to a local, the parts (and their URL string) were copied.
        if storage.shared.parts.scanned { return storage.shared.withTargetBytes(body) }
        var target = target
        return target.withUTF8(body)
    }

    /// The target's path (`/` when empty) and query (empty when there is none).
    var targetParts: (path: Substring, query: Substring) {
        if storage.shared.parts.scanned { return storage.shared.parts.target }
        let path = url.path(percentEncoded: true)
        return (path.isEmpty ? "/" : Substring(path), Substring(url.query(percentEncoded: true) ?? ""))
    }

    /// `Host` value: the port only when it is not the scheme's default.
    public var hostHeader: String {
        guard let explicit = explicitPort, explicit != (isSecure ? 443 : 80) else { return host }
        return "\(host):\(explicit)"
    }

    /// The request head as sent: request line, `Host`, the caller's fields, and
    /// `Connection: keep-alive` unless the caller chose a `Connection` field.
    var encodedHead: [UInt8] { encodedHead(fields: encodedFields) }

    /// The request line followed by `fields` (`encodedFields`, maybe kept from an earlier
    /// request with the same origin and fields: `RequestFieldsCache`), `extraHeaders` and a
    /// body's `Content-Length`.
    ///
    /// A parsed URL's head is written piece by piece into an array of its exact size: appended,
    /// each piece checked the array's room and uniqueness, and the method and version went through
    /// `String.UTF8View`: work per piece that the exact size makes unnecessary. The extra fields
    /// go into the same array: appended after it, they made the array grow again, and every
    /// exchange of a trace that is not recorded sends `traceparent` as an extra field.
    func encodedHead(fields: [UInt8]) -> [UInt8] {
        guard storage.shared.parts.scanned else {
            let layout = HeadLayout(self, fields: fields, targetCount: 0)
            return Self.appendedHead(method: method.rawValue, target: targetParts, fields: fields, extra: sentExtraHeaders, length: layout.length)
        }
        let layout = HeadLayout(self, fields: fields, targetCount: storage.shared.parts.targetCount)
        return [UInt8](unsafeUninitializedCapacity: layout.size) { buffer, initialized in
            var head = HeadWriter(UnsafeMutableRawPointer(buffer.baseAddress!))
            write(parts: storage.shared, fields: fields, layout: layout, into: &head)
            initialized = layout.size
        }
    }

    /// `encodedHead(fields:)` lent to `send` without an array of its own for a parsed URL: written
    /// into a temporary allocation of its exact size (on the stack at a head's size), where the
    /// array cost an allocation and its release per exchange (~700 instructions; the figure:
    /// Benchmarks/README.md). A URL only Foundation parses lends its `encodedHead(fields:)`
    /// (HTTPClientRequestTests compares the two).
    func withEncodedHead<Result>(fields: [UInt8], _ send: (UnsafeRawBufferPointer) -> Result) -> Result {
        guard storage.shared.parts.scanned else { return encodedHead(fields: fields).withUnsafeBytes(send) }
        // The parts read where they lie in the box (a `let` of a class): bound by `guard let`
        // from an optional, they were copied (two strings retained and released, through
        // `Optional<URLParts>`'s value witnesses; see `URLParts.scanned`).
        let layout = HeadLayout(self, fields: fields, targetCount: storage.shared.parts.targetCount)
        return withUnsafeTemporaryAllocation(byteCount: layout.size, alignment: 1) { buffer in
            var head = HeadWriter(buffer.baseAddress!)
            write(parts: storage.shared, fields: fields, layout: layout, into: &head)
            return send(UnsafeRawBufferPointer(buffer))
        }
    }

    /// A head's size and what follows `fields`, worked out before it is written.
    private struct HeadLayout {
        /// A body's `Content-Length` value (an empty POST, PUT or PATCH says 0); nil: none.
        let length: String?
        /// Whether lines follow `fields`, before its blank line.
        let extended: Bool
        /// The bytes `write(parts:fields:layout:into:)` writes (for a parsed URL).
        let size: Int

        /// - Parameter targetCount: the parsed URL's `URLParts.targetCount` (0 for any other).
        init(_ request: HTTPClientRequest, fields: [UInt8], targetCount: Int) {
            let method = request.method
            // GET first: the same string's bits, where each of the three others compared unequal
            // strings (~65 instructions an exchange).
            let bodyCount = request.bodyCount
            let statesLength = bodyCount > 0 || (method != .get && (method == .post || method == .put || method == .patch))
            length = statesLength ? String(bodyCount) : nil
            let extra = request.extraHeaders
            let traceParent = request.traceParent
            extended = !extra.isEmpty || traceParent != nil || length != nil
            var size = method.rawValue.utf8.count + 1 + targetCount + HTTPClientRequest.requestLineEnd.utf8CodeUnitCount + fields.count
            if !extra.isEmpty {
                for (name, value) in extra { size += name.utf8.count + 2 + value.utf8.count + 2 }
            }
            if traceParent != nil { size += HTTPClientRequest.traceParentLine.utf8CodeUnitCount + TraceParentIDs.count + 2 }
            if let length { size += HTTPClientRequest.contentLength.utf8CodeUnitCount + length.utf8.count + 2 }
            self.size = size
        }
    }

    private static let requestLineEnd: StaticString = " HTTP/1.1\r\n"
    /// `TraceParentIDs.fieldName` and its separator, as a literal the head writer copies.
    private static let traceParentLine: StaticString = "traceparent: "
    private static let contentLength: StaticString = "Content-Length: "

    /// The head of a parsed URL: the request line, `fields`, and with `layout.extended` the extra
    /// lines before `fields`' blank line.
    private func write(parts: URLParts.Shared, fields: [UInt8], layout: HeadLayout, into head: inout HeadWriter) {
        head.string(method.rawValue)
        head.byte(UInt8(ascii: " "))
        parts.writeTarget(into: &head)
        head.text(Self.requestLineEnd)
        fields.withUnsafeBytes { head.bytes(layout.extended ? UnsafeRawBufferPointer(rebasing: $0.dropLast(2)) : $0) }
        guard layout.extended else { return }
        for (name, value) in extraHeaders {
            head.string(name)
            head.text(": ")
            head.string(value)
            head.text("\r\n")
        }
        if let traceParent {
            head.text(Self.traceParentLine)
            traceParent.write(to: head.at)
            head.at += TraceParentIDs.count
            head.text("\r\n")
        }
        if let length = layout.length {
            head.text(Self.contentLength)
            head.string(length)
            head.text("\r\n")
        }
        head.text("\r\n")
    }

    /// The slow twin of the parsed URL's head, and the head of a URL that only Foundation parses:
    /// the request line interpolated, the rest appended.
    static func appendedHead(
        method: String, target: (path: Substring, query: Substring), fields: [UInt8], extra: HTTPHeaders, length: String?
    ) -> [UInt8] {
        var head = Array("\(method) \(target.path)\(target.query.isEmpty ? "" : "?")\(target.query) HTTP/1.1\r\n".utf8)
        head.append(contentsOf: fields)
        guard !extra.isEmpty || length != nil else { return head }
        head.removeLast(2)
        for (name, value) in extra { appendLine(name, value, to: &head) }
        if let length { appendLine("Content-Length", length, to: &head) }
        head.append(contentsOf: [UInt8(ascii: "\r"), UInt8(ascii: "\n")])
        return head
    }

    /// `name: value` and CRLF.
    private static func appendLine(_ name: String, _ value: String, to head: inout [UInt8]) {
        head.append(contentsOf: name.utf8)
        head.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
        head.append(contentsOf: value.utf8)
        head.append(contentsOf: [UInt8(ascii: "\r"), UInt8(ascii: "\n")])
    }

    /// Everything after the request line: `Host`, the caller's fields, `Connection`, and the
    /// blank line. Appended as bytes into one buffer: no interpolated `String` built and then
    /// copied out.
    var encodedFields: [UInt8] {
        var head: [UInt8] = []
        head.reserveCapacity(256)
        Self.appendLine("Host", hostHeader, to: &head)
        for (name, value) in headers where !HTTPHeaders.sameName(name, "Host") { Self.appendLine(name, value, to: &head) }
        if !headers.contains("Connection") { Self.appendLine("Connection", "keep-alive", to: &head) }
        head.append(contentsOf: [UInt8(ascii: "\r"), UInt8(ascii: "\n")])
        return head
    }
}

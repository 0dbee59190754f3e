// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Tracing

/// The SERVER span of one request (OpenTelemetry's stable HTTP semantic conventions): begun
/// before the route runs, as a child of the request's propagated context (`traceparent`),
/// named `GET /users` after the matched route once the router has it, ended when the answer
/// ends, whatever ended it (written, cut by the client, a shutdown).
/// A class, so an answer that is not traced pays one nil reference for it.
// @unchecked: its mutable fields are only touched on the connection's loop, as the answer is.
final class ServerSpan: @unchecked Sendable {
    let span: any Span
    let tracer: any Tracer
    /// `tracer` when its spans take an attribute list whole.
    private let lists: (any SpanAttributeListTaking)?
    /// The span's recording, reached directly when `lists` began it and it records
    /// (`SpanAttributeListTaking.startRecordedSpan`); nil: `span` does it all (the slow twin).
    private let recorded: (any RecordedSpan)?
    private let method: String
    private var ended = false
    /// Gathered here and handed to the span once, as it ends: each `span.attributes[…] = …`
    /// would copy the span's whole set out and back under its lock.
    private var attributes = SpanAttributeList()

    init(for request: borrowing Request, tracer: any Tracer, lists: (any SpanAttributeListTaking)?) {
        self.tracer = tracer
        self.lists = lists
        method = request.method.rawValue
        var parent = ServiceContext.topLevel
        tracer.extract(request.headers, into: &parent, using: HTTPHeadersExtractor())
        (span, recorded) = tracer.startSpan(method, context: parent, ofKind: .server, lists: lists)
        // An unsampled span records nothing: its attributes would be built to be thrown away.
        guard span.isRecording else { return }
        attributes = SpanAttributeList(capacity: 10)
        attributes.append("http.request.method", stored: .string(method))
        attributes.append("url.path", stored: .string(request.path))
        attributes.append("url.scheme", stored: .string(request.scheme))
        let version = request.version
        attributes.append("network.protocol.version", stored: .string(version.major == 2 ? "2" : version.minor == 1 && version.major == 1 ? "1.1" : "\(version.major).\(version.minor)"))
        if let (host, port) = Self.hostAndPort(request.authority, secure: request.scheme == "https") {
            attributes.append("server.address", stored: .string(host))
            attributes.append("server.port", stored: .int64(Int64(port)))
        }
    }

    var context: ServiceContext { span.context }

    /// The route is known: the span is named after its pattern (`GET /users/{login}`), the
    /// low-cardinality name the conventions ask for, not the path.
    func routed(_ pattern: String?) {
        guard let pattern, span.isRecording else { return }
        span.operationName = "\(method) \(pattern)"
        attributes.append("http.route", stored: .string(pattern))
    }

    /// The answer ended with `status` (0: none was written); `completed`: its last byte was sent.
    func end(status: Int, completed: Bool) {
        guard !ended else { return }
        ended = true
        guard span.isRecording else { return span.end() }
        if status > 0 { attributes.append("http.response.status_code", stored: .int64(Int64(status))) }
        if status >= 500 {
            attributes.append("error.type", stored: .string(String(status)))
            span.setStatus(SpanStatus(code: .error))
        } else if status == 0 {
            // The client or a shutdown ended the exchange before any answer was written.
            attributes.append("error.type", stored: .string("_OTHER"))
            span.setStatus(SpanStatus(code: .error, message: "no response was written"))
        }
        if !completed { attributes.append("streamservice.response.completed", stored: .bool(false)) }
        if let recorded { return recorded.end(adding: attributes) }
        attributes.add(to: span, taker: lists)
        span.end()
    }

    /// `Host` (or `:authority`) split into the name and the port (the scheme's default without one).
    static func hostAndPort(_ authority: String?, secure: Bool) -> (String, Int)? {
        guard let authority, !authority.isEmpty else { return nil }
        let defaultPort = secure ? 443 : 80
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let host = String(authority[authority.index(after: authority.startIndex)..<close])
            let rest = authority[authority.index(after: close)...]
            if rest.hasPrefix(":"), let port = Int(rest.dropFirst()) { return (host, port) }
            return (host, defaultPort)
        }
        if let colon = authority.utf8.lastIndex(of: UInt8(ascii: ":")) {
            let digits = authority.utf8[authority.utf8.index(after: colon)...]
            // Plain decimal digits read in place; `Int(_:)` (signs, overflow) only otherwise.
            if let port = Self.decimal(digits) ?? Int(authority[authority.index(after: colon)...]) {
                return (String(authority[..<colon]), port)
            }
        }
        return (authority, defaultPort)
    }

    /// 1 to 18 ASCII digits as their value (what `Int(_:)` makes of them, without its generic
    /// parse); nil for anything else.
    static func decimal(_ digits: Substring.UTF8View) -> Int? {
        guard (1...18).contains(digits.count) else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}

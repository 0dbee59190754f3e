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
    /// The span as it began, kept whole: its fields taken out one by one were copied, and the
    /// rest of it destroyed (about 150 instructions a request). Its recording (`recorded`), when
    /// `lists` began it and it records, does all the span does; nil: `span` does it all (the
    /// slow twin).
    private let start: ServerSpanStart
    /// The tracer, when its spans take an attribute list whole.
    private let lists: (any SpanAttributeListTaking)?
    private let method: String
    /// `span.isRecording`, asked once: each call on the existential copied it out and destroyed
    /// the copy (about 80 instructions, three a request).
    private let isRecording: Bool
    /// The request's parts its attributes are made of, kept as they are (their strings retained).
    private let path: String
    private let scheme: String
    private let authority: String?
    private let version: HTTPVersion
    // Unchecked: touched on the connection's loop alone (each checked access cost about 110
    // instructions, eight a request).
    @exclusivity(unchecked) private var ended = false
    /// The matched route's pattern.
    @exclusivity(unchecked) private var pattern: String?
    /// The route's shared attributes, once `routed` or `end` looked them up (a recorded span's only).
    @exclusivity(unchecked) private var route: ServerSpanAttributes.Route?

    /// Begins the SERVER span of `request`, a child of its propagated context: through `lists`
    /// when given (the span's recording and its ids reached directly), else through `tracer`
    /// (the slow twin). What `init(_:for:lists:)` keeps; an unrecorded span under a tracer
    /// that keeps its context (`UnrecordedContextKeeping`) is not kept at all.
    /// `extracting` false: the request carries nothing `tracer` would extract (no `traceparent`
    /// under a `TraceparentExtracting` tracer), so the span is a root without asking it.
    static func start(
        for request: borrowing Request, tracer: any Tracer, lists: (any SpanAttributeListTaking)?, extracting: Bool = true
    ) -> ServerSpanStart {
        var parent = ServiceContext.topLevel
        if extracting { tracer.extract(request.headers, into: &parent, using: HTTPHeadersExtractor()) }
        let method = request.method.rawValue
        if let lists { return lists.startServerSpan(method, context: parent) }
        return ServerSpanStart(span: tracer.startSpan(method, context: parent, ofKind: .server), recorded: nil, identity: nil)
    }

    /// Whether the span `start` began records: begun by `lists`, when it has a recording.
    static func isRecording(_ start: ServerSpanStart, lists: (any SpanAttributeListTaking)?) -> Bool {
        lists == nil ? start.span.isRecording : start.recorded != nil
    }

    /// `start`, the span `start(for:tracer:lists:extracting:)` began for `request`, kept to be named and ended.
    init(_ start: consuming ServerSpanStart, for request: borrowing Request, lists: (any SpanAttributeListTaking)?) {
        self.lists = lists
        method = request.method.rawValue
        isRecording = Self.isRecording(start, lists: lists)
        self.start = start
        // An unsampled span records nothing: its attributes would be read to be thrown away.
        guard isRecording else {
            path = ""
            scheme = ""
            authority = nil
            version = .http1_1
            return
        }
        path = request.path
        scheme = request.scheme
        authority = request.authority
        version = request.version
    }

    var context: ServiceContext { start.span.context }

    /// The route is known: the span is named after its pattern (`GET /users/{login}`), the
    /// low-cardinality name the conventions ask for, not the path.
    func routed(_ pattern: String?) {
        guard let pattern, isRecording else { return }
        self.pattern = pattern
        // A recorded span's name is its route's, made once.
        if let recorded = start.recorded { return recorded.rename(sharedRoute().name ?? method) }
        start.span.operationName = "\(method) \(pattern)"
    }

    private func sharedRoute() -> ServerSpanAttributes.Route {
        if let route { return route }
        let made = ServerSpanAttributes.shared.route(
            method: method, scheme: scheme, authority: authority, major: version.major, minor: version.minor, pattern: pattern)
        route = made
        return made
    }

    /// The answer ended with `status` (0: none was written); `completed`: its last byte was sent.
    func end(status: Int, completed: Bool) {
        guard !ended else { return }
        ended = true
        guard isRecording else { return start.span.end() }
        if status >= 500 {
            start.span.setStatus(SpanStatus(code: .error))
        } else if status == 0 {
            // The client or a shutdown ended the exchange before any answer was written.
            start.span.setStatus(SpanStatus(code: .error, message: "no response was written"))
        }
        if let recorded = start.recorded {
            // The usual end: the path its own, the rest as the route's spans of that status share.
            if status > 0, completed { return recorded.end(adding: "url.path", string: path, sharing: sharedRoute().shared(status: status)) }
            return recorded.end(adding: attributes(status: status, completed: completed))
        }
        attributes(status: status, completed: completed).add(to: start.span, taker: lists)
        start.span.end()
    }

    /// The span's whole list: the slow twin of its path beside the route's shared attributes.
    private func attributes(status: Int, completed: Bool) -> SpanAttributeList {
        Self.attributeList(
            method: method, path: path, scheme: scheme, major: version.major, minor: version.minor, authority: authority, route: pattern,
            status: status, completed: completed)
    }

    /// A SERVER span's attributes (OpenTelemetry's stable HTTP server names), `url.path` first
    /// when given (nil: the route's shared set, `ServerSpanAttributes`, which a span's path goes before).
    static func attributeList(
        method: String, path: String?, scheme: String, major: Int, minor: Int, authority: String?, route: String?, status: Int, completed: Bool
    ) -> SpanAttributeList {
        var attributes = SpanAttributeList(capacity: 10)
        if let path { attributes.append("url.path", stored: .string(path)) }
        attributes.append("http.request.method", stored: .string(method))
        attributes.append("url.scheme", stored: .string(scheme))
        let version = major == 2 ? "2" : minor == 1 && major == 1 ? "1.1" : "\(major).\(minor)"
        attributes.append("network.protocol.version", stored: .string(version))
        if let (host, port) = hostAndPort(authority, secure: scheme == "https") {
            attributes.append("server.address", stored: .string(host))
            attributes.append("server.port", stored: .int64(Int64(port)))
        }
        if let route { attributes.append("http.route", stored: .string(route)) }
        if status > 0 { attributes.append("http.response.status_code", stored: .int64(Int64(status))) }
        if status >= 500 {
            attributes.append("error.type", stored: .string(String(status)))
        } else if status == 0 {
            attributes.append("error.type", stored: .string("_OTHER"))
        }
        if !completed { attributes.append("streamservice.response.completed", stored: .bool(false)) }
        return attributes
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

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A request's header block checked against RFC 9113 §8.2–8.3 and split into its pseudo-header
/// fields and its regular ones. A block that breaks a rule is malformed: a stream error of type
/// PROTOCOL_ERROR (§8.1.1), given here as the rule's description.
struct HTTP2RequestHead: Sendable {
    var method: String
    var scheme: String
    var authority: String?
    var path: String
    var fields: HTTPHeaders
    var contentLength: Int?

    /// Fields that only mean something to one HTTP/1.1 connection (§8.2.2).
    static let connectionSpecific: Set<String> = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"]

    init(validating block: [(name: String, value: String)]) throws(HTTP2MalformedMessage) {
        var method: String?, scheme: String?, authority: String?, path: String?
        var regularSeen = false
        var fields = HTTPHeaders(reservingCapacity: block.count + 1)
        var contentLength: Int?
        var cookieFields = 0
        for (name, value) in block {
            try Self.checkName(name)
            try Self.checkValue(value, of: name)
            if name.utf8.first == UInt8(ascii: ":") {
                guard !regularSeen else { throw .init("pseudo-header \(name) after a regular field") }
                func once(_ slot: inout String?) throws(HTTP2MalformedMessage) {
                    guard slot == nil else { throw .init("pseudo-header \(name) twice") }
                    slot = value
                }
                switch name {
                case ":method": try once(&method)
                case ":scheme": try once(&scheme)
                case ":authority": try once(&authority)
                case ":path": try once(&path)
                default: throw .init("pseudo-header \(name) is not a request's")
                }
                continue
            }
            regularSeen = true
            if Self.connectionSpecific.contains(name) { throw .init("connection-specific field \(name)") }
            if name == "te" && value != "trailers" { throw .init("te field other than \"trailers\"") }
            if name == "content-length" {
                guard let length = HTTPSyntax.contentLength(value), contentLength == nil || contentLength == length else {
                    throw .init("content-length \(value) is not one non-negative number")
                }
                contentLength = length
            }
            if name == "cookie" { cookieFields += 1 }
            fields.add(name: name, value: value)
        }
        guard let method else { throw .init(":method missing") }
        // RFC 9110 §9.1: a method is a token; anything else is not a method an HTTP/1.1 reader could see.
        guard !method.isEmpty, method.utf8.allSatisfy(HTTPSyntax.isTokenCharacter) else { throw .init(":method is not a token") }
        if method == "CONNECT" {
            // The CONNECT form (§8.5) carries only :method and :authority; this server tunnels nothing,
            // and a route answers 405 for the method, but the form must still hold.
            guard scheme == nil, path == nil, authority != nil else { throw .init("CONNECT with :scheme or :path, or without :authority") }
        } else {
            guard let scheme, !scheme.isEmpty else { throw .init(":scheme missing") }
            guard let path, !path.isEmpty else { throw .init(":path missing or empty") }
            guard scheme.utf8.allSatisfy(HTTPSyntax.isTokenCharacter) else { throw .init(":scheme \(scheme) is not a scheme") }
            // Origin form, or `*` for OPTIONS (§8.3.1); an absolute path is what routes match.
            guard path.utf8.first == UInt8(ascii: "/") || (path == "*" && method == "OPTIONS") else {
                throw .init(":path \(path) is neither an absolute path nor *")
            }
        }
        // A client may split `cookie` into one field per crumb for better compression; an HTTP/1.1
        // reader expects one field, the crumbs joined by "; " (RFC 9113 §8.2.3).
        if cookieFields > 1 {
            let cookies = fields.values(for: "cookie")
            fields.remove(name: "cookie")
            fields.add(name: "cookie", value: cookies.joined(separator: "; "))
        }
        self.method = method
        self.scheme = scheme ?? ""
        self.authority = authority
        self.path = path ?? "/"
        self.fields = fields
        self.contentLength = contentLength
    }

    /// Names are lowercase tokens (§8.2, §8.2.1); a leading colon only for pseudo-headers.
    static func checkName(_ name: String) throws(HTTP2MalformedMessage) {
        guard !name.isEmpty else { throw .init("empty field name") }
        // A plain loop: `enumerated()` over the UTF-8 view was left as a call per byte (see the ledger).
        var first = true
        for byte in name.utf8 {
            defer { first = false }
            if byte == UInt8(ascii: ":") && first { continue }
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { throw .init("uppercase field name \(name)") }
            guard HTTPSyntax.isTokenCharacter(byte) else { throw .init("field name \(name) has a byte that is not a token character") }
        }
    }

    /// Values carry no NUL, CR or LF, and no whitespace at either end (§8.2.1).
    static func checkValue(_ value: String, of name: String) throws(HTTP2MalformedMessage) {
        let utf8 = value.utf8
        for byte in utf8 where byte == 0 || byte == 0x0A || byte == 0x0D { throw .init("field \(name) has NUL, CR or LF in its value") }
        if let first = utf8.first, first == 0x20 || first == 0x09 { throw .init("field \(name) value starts with whitespace") }
        if let last = utf8.last, last == 0x20 || last == 0x09 { throw .init("field \(name) value ends with whitespace") }
    }

    /// Trailers: regular fields only (§8.1).
    static func validateTrailers(_ block: [(name: String, value: String)]) throws(HTTP2MalformedMessage) {
        for (name, value) in block {
            try checkName(name)
            try checkValue(value, of: name)
            if name.utf8.first == UInt8(ascii: ":") { throw .init("pseudo-header \(name) in trailers") }
            if connectionSpecific.contains(name) { throw .init("connection-specific field \(name) in trailers") }
        }
    }
}

/// Why a request's message is malformed (RFC 9113 §8.1.1).
struct HTTP2MalformedMessage: Error, Sendable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

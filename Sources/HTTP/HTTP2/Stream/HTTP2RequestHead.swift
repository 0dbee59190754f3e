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

    /// A field that only means something to one HTTP/1.1 connection (§8.2.2); `name` lowercase.
    /// By length, then one comparison: asked of every field both ways, a `Set<String>` hashed each name.
    static func isConnectionSpecific(_ name: String) -> Bool {
        switch name.utf8.count {
        case 7: name == "upgrade"
        case 10: name == "connection" || name == "keep-alive"
        case 16: name == "proxy-connection"
        case 17: name == "transfer-encoding"
        default: false
        }
    }

    /// - Parameter checked: the decoder's `checkedFields`: fields whose name and value are known
    ///   to pass `checkName` and `checkValue`, which are not checked again. 0, the slow twin, checks
    ///   every field (HTTP2FieldChecksTests compares the two).
    init(validating block: [(name: String, value: String)], checked: UInt64 = 0) throws(HTTP2MalformedMessage) {
        var method: String?, scheme: String?, authority: String?, path: String?
        var regularSeen = false
        var fields = HTTPHeaders(reservingCapacity: block.count + 1)
        var contentLength: Int?
        var cookieFields = 0
        for (index, (name, value)) in block.enumerated() {
            if !HTTP2FieldRules.isChecked(index, in: checked) {
                try Self.checkName(name)
                try Self.checkValue(value, of: name)
            }
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
            if Self.isConnectionSpecific(name) { throw .init("connection-specific field \(name)") }
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

    /// `name.lowercased()`, without its cost for the names a message carries: a name already
    /// lowercase is itself, an ASCII one is lowered byte by byte; any other goes to `lowercased()`,
    /// the slow twin (HTTP2RequestFieldsTests compares the two). Both directions lower every name they send.
    static func lowercasedName(_ name: String) -> String {
        HTTP2FieldRules.withBytes(of: name) { bytes in
            var upper = false
            for byte in bytes {
                if byte >= 0x80 { return name.lowercased() }
                if byte &- UInt8(ascii: "A") < 26 { upper = true }
            }
            guard upper else { return name }
            return String(unsafeUninitializedCapacity: bytes.count) { out in
                for index in 0..<bytes.count {
                    let byte = bytes[index]
                    out[index] = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
                }
                return bytes.count
            }
        }
    }

    /// Names are lowercase tokens (§8.2, §8.2.1); a leading colon only for pseudo-headers.
    static func checkName(_ name: String) throws(HTTP2MalformedMessage) {
        switch HTTP2FieldRules.withBytes(of: name, HTTP2FieldRules.nameFault) {
        case nil: return
        case .empty: throw .init("empty field name")
        case .uppercase: throw .init("uppercase field name \(name)")
        case .notToken: throw .init("field name \(name) has a byte that is not a token character")
        }
    }

    /// Values carry no NUL, CR or LF, and no whitespace at either end (§8.2.1).
    static func checkValue(_ value: String, of name: String) throws(HTTP2MalformedMessage) {
        switch HTTP2FieldRules.withBytes(of: value, HTTP2FieldRules.valueFault) {
        case nil: return
        case .forbiddenByte: throw .init("field \(name) has NUL, CR or LF in its value")
        case .leadingWhitespace: throw .init("field \(name) value starts with whitespace")
        case .trailingWhitespace: throw .init("field \(name) value ends with whitespace")
        }
    }

    /// Trailers: regular fields only (§8.1); `checked` as for `init(validating:checked:)`.
    static func validateTrailers(_ block: [(name: String, value: String)], checked: UInt64 = 0) throws(HTTP2MalformedMessage) {
        for (index, (name, value)) in block.enumerated() {
            if !HTTP2FieldRules.isChecked(index, in: checked) {
                try checkName(name)
                try checkValue(value, of: name)
            }
            if name.utf8.first == UInt8(ascii: ":") { throw .init("pseudo-header \(name) in trailers") }
            if isConnectionSpecific(name) { throw .init("connection-specific field \(name) in trailers") }
        }
    }
}

/// Why a request's message is malformed (RFC 9113 §8.1.1).
struct HTTP2MalformedMessage: Error, Sendable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The origins whose pages may read this service's answers (`--cors-origins`):
/// none (the default: same-origin pages only), any (`*`), or a list.
///
/// Listed origins are kept in the form browsers send in `Origin` (RFC 6454 §6.2):
/// lowercase scheme and host, no default port, no path; so `HTTPS://App.Example:443`
/// on the command line matches `https://app.example` from a browser.
public enum CORSOrigins: Sendable, Equatable {
    case none
    case any
    case list(Set<String>)

    public struct Invalid: Error, Equatable {
        public let reason: String
    }

    /// Parses `*` or comma-separated origins such as `https://app.example,http://localhost:3000`.
    public static func parse(_ text: String) throws(Invalid) -> CORSOrigins {
        let entries = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        if entries == ["*"] { return .any }
        var origins = Set<String>()
        for entry in entries {
            if entry.isEmpty { throw Invalid(reason: "an empty origin in the list (stray comma?)") }
            if entry == "*" { throw Invalid(reason: "* stands alone, not in a list") }
            origins.insert(try serialized(entry))
        }
        return .list(origins)
    }

    /// `scheme://host[:port]` normalized as a browser serializes it, or `Invalid` saying why not.
    static func serialized(_ entry: String) throws(Invalid) -> String {
        let example = "expected origins like https://app.example or http://localhost:3000, or *"
        guard let separator = entry.firstRange(of: "://") else { throw Invalid(reason: "\(entry) has no scheme; \(example)") }
        let scheme = entry[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { throw Invalid(reason: "\(entry) is not http or https; \(example)") }
        let authority = String(entry[separator.upperBound...])
        guard !authority.contains("/"), !authority.contains("?"), !authority.contains("#") else {
            throw Invalid(reason: "\(entry) has a path; an origin is scheme://host[:port] only")
        }
        guard !authority.contains("@") else { throw Invalid(reason: "\(entry) has user information; \(example)") }
        var host = authority.lowercased()
        var port: Int?
        if let colon = host.lastIndex(of: ":"), !host.hasSuffix("]") {
            guard let number = Int(host[host.index(after: colon)...]), (1...65_535).contains(number) else {
                throw Invalid(reason: "\(entry) has a bad port; \(example)")
            }
            port = number
            host = String(host[..<colon])
        }
        let hostCharacters = host.hasPrefix("[") && host.hasSuffix("]")
            ? host.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
            : host.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }
        guard !host.isEmpty, hostCharacters, host.allSatisfy({ $0.isASCII }) else {
            throw Invalid(reason: "\(entry) has no valid host; \(example)")
        }
        let defaultPort = scheme == "https" ? 443 : 80
        let portSuffix = port.map { $0 == defaultPort ? "" : ":\($0)" } ?? ""
        return "\(scheme)://\(host)\(portSuffix)"
    }

    /// Whether a page from `origin` (the request's `Origin` header) may read the answer.
    public func allows(_ origin: String) -> Bool {
        switch self {
        case .none: false
        case .any: true
        case .list(let origins): origins.contains(origin)
        }
    }
}

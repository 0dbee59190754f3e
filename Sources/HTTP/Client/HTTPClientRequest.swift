#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One request for `HTTPClient`, fully addressed by its URL (`http` or `https`).
public struct HTTPClientRequest: Sendable, Equatable {
    public var method: HTTPMethod
    public var url: URL
    public var headers: HTTPHeaders

    public init(method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = HTTPHeaders()) {
        self.method = method
        self.url = url
        self.headers = headers
    }

    /// A request for `url` (`http://…` or `https://…`); nil when it is not a URL.
    public init?(method: HTTPMethod = .get, url: String, headers: HTTPHeaders = HTTPHeaders()) {
        guard let url = URL(string: url) else { return nil }
        self.init(method: method, url: url, headers: headers)
    }

    public var isSecure: Bool { url.scheme?.lowercased() == "https" }
    public var host: String { url.host ?? "127.0.0.1" }
    public var port: Int { url.port ?? (isSecure ? 443 : 80) }

    /// Path plus query, as sent on the request line.
    public var target: String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var path = components?.percentEncodedPath ?? ""
        if path.isEmpty { path = "/" }
        if let query = components?.percentEncodedQuery, !query.isEmpty { return path + "?" + query }
        return path
    }

    /// `Host` value: the port only when it is not the scheme's default.
    public var hostHeader: String {
        let defaultPort = isSecure ? 443 : 80
        return url.port == nil || port == defaultPort ? host : "\(host):\(port)"
    }

    /// The request head as sent: request line, `Host`, the caller's fields, and
    /// `Connection: keep-alive` unless the caller chose a `Connection` field.
    ///
    /// Appended as bytes into one buffer: built as one interpolated `String` and then copied
    /// out, it cost about 7,000 instructions per upstream exchange.
    var encodedHead: [UInt8] {
        var head: [UInt8] = []
        head.reserveCapacity(256)
        func append(_ text: String) { head.append(contentsOf: text.utf8) }
        func appendLine(_ name: String, _ value: String) {
            append(name)
            head.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            append(value)
            head.append(contentsOf: [UInt8(ascii: "\r"), UInt8(ascii: "\n")])
        }
        append(method.rawValue)
        head.append(UInt8(ascii: " "))
        append(target)
        append(" HTTP/1.1\r\n")
        appendLine("Host", hostHeader)
        for (name, value) in headers where !HTTPHeaders.sameName(name, "Host") { appendLine(name, value) }
        if !headers.contains("Connection") { appendLine("Connection", "keep-alive") }
        head.append(contentsOf: [UInt8(ascii: "\r"), UInt8(ascii: "\n")])
        return head
    }
}

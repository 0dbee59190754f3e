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
    var encodedHead: [UInt8] {
        var head = "\(method.rawValue) \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\n"
        for (name, value) in headers where !HTTPHeaders.sameName(name, "Host") {
            head += "\(name): \(value)\r\n"
        }
        if !headers.contains("Connection") { head += "Connection: keep-alive\r\n" }
        return Array((head + "\r\n").utf8)
    }
}

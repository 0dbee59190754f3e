#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One GET (or other method) against the upstream, fully addressed.
public struct UpstreamRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    public var headers: [String: String]

    public init(method: String = "GET", url: URL, headers: [String: String] = [:]) {
        self.method = method
        self.url = url
        self.headers = headers
    }

    public var isSecure: Bool { url.scheme?.lowercased() == "https" }
    public var origin: UpstreamOrigin { UpstreamOrigin(url) }
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

    /// The same request sent to `target` after a redirect: `Authorization` goes along only
    /// while the origin stays the same (as browsers and curl do), never to another origin.
    public func redirected(to target: URL) -> UpstreamRequest {
        var next = UpstreamRequest(method: method, url: target, headers: headers)
        if UpstreamOrigin(target) != origin {
            next.headers = next.headers.filter { $0.key.lowercased() != "authorization" }
        }
        return next
    }

    /// A header's value, whatever the case of its name.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    /// `Host` value: the port only when it is not the scheme's default.
    public var hostHeader: String {
        let defaultPort = isSecure ? 443 : 80
        return url.port == nil || port == defaultPort ? host : "\(host):\(port)"
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP

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

    public var isSecure: Bool { clientRequest.isSecure }
    public var host: String { clientRequest.host }
    public var port: Int { clientRequest.port }

    /// Path plus query, as sent on the request line.
    public var target: String { clientRequest.target }

    /// A header's value, whatever the case of its name.
    public func header(_ name: String) -> String? {
        headers.first { HTTPHeaders.sameName($0.key, name) }?.value
    }

    /// `Host` value: the port only when it is not the scheme's default.
    public var hostHeader: String { clientRequest.hostHeader }
}

import Foundation
import NetCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny blocking HTTP/1.1 GET over a raw socket: enough to ask `/health`
/// whether it answers 200, with no curl or HTTP client library.
enum HealthProbe {
    enum Outcome: Equatable {
        case healthy
        case unhealthy(String)
    }

    static func check(url text: String, timeout: Duration) -> Outcome {
        guard let url = URL(string: text), url.scheme?.lowercased() == "http", let host = url.host, !host.isEmpty else {
            return .unhealthy("expected an http:// URL")
        }
        let port = url.port ?? 80
        let path = url.path.isEmpty ? "/" : url.path + (url.query.map { "?" + $0 } ?? "")
        let addresses: [SocketAddress]
        do {
            addresses = try SocketAddress.resolve(host: host, port: port)
        } catch {
            return .unhealthy("\(error)")
        }
        guard let address = addresses.first else { return .unhealthy("no address for \(host)") }
        let descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return .unhealthy("socket: errno \(errno)") }
        defer { close(descriptor) }
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard address.withSockaddr({ connect(descriptor, $0, $1) }) == 0 else {
            return .unhealthy("connect: \(String(cString: strerror(errno)))")
        }
        let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nConnection: close\r\nUser-Agent: stream-service-healthcheck\r\n\r\n".utf8)
        let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { return .unhealthy("send failed") }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1024)
        // The status line is all we need.
        while !received.contains(UInt8(ascii: "\n")), received.count < 8192 {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return .unhealthy(count == 0 ? "connection closed without an answer" : "no answer in time") }
            received += chunk[..<count]
        }
        let statusLine = String(decoding: received.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else { return .unhealthy("not an HTTP answer: \(statusLine)") }
        return parts[1] == "200" ? .healthy : .unhealthy("status \(parts[1])")
    }
}

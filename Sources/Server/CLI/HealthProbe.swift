import ConcurrencyHelpers
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 GET: enough to ask `/health` whether it answers 200, with
/// no curl or HTTP client library. `http` uses a blocking raw socket; `https`
/// (a service started with `--tls-cert`) goes through NetCore's TLS client
/// without verifying the certificate, since the check talks to its own service.
enum HealthProbe {
    enum Outcome: Equatable {
        case healthy
        case unhealthy(String)
    }

    static func check(url text: String, timeout: Duration) -> Outcome {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty
        else {
            return .unhealthy("expected an http:// or https:// URL")
        }
        let path = url.path.isEmpty ? "/" : url.path + (url.query.map { "?" + $0 } ?? "")
        if scheme == "https" {
            return checkOverTLS(host: host, port: url.port ?? 443, path: path, timeout: timeout)
        }
        let port = url.port ?? 80
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
        let request = Self.request(host: host, port: port, path: path)
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
        return outcome(statusLineIn: received)
    }

    private static func request(host: String, port: Int, path: String) -> [UInt8] {
        let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        return Array("GET \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nConnection: close\r\nUser-Agent: stream-service-healthcheck\r\n\r\n".utf8)
    }

    private static func outcome(statusLineIn received: [UInt8]) -> Outcome {
        let statusLine = String(decoding: received.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else { return .unhealthy("not an HTTP answer: \(statusLine)") }
        return parts[1] == "200" ? .healthy : .unhealthy("status \(parts[1])")
    }

    private static func checkOverTLS(host: String, port: Int, path: String, timeout: Duration) -> Outcome {
        let context: TLSContext
        do {
            context = try TLSContext(configuration: .client(verifyPeer: false))
        } catch {
            return .unhealthy("\(error)")
        }
        let answer = TLSAnswer()
        ByteStreamConnector.connect(host: host, port: port, tls: context, timeout: timeout) { result in
            switch result {
            case .failure(let error):
                answer.finish(.unhealthy("\(error)"))
            case .success(let stream):
                answer.hold(stream)
                var received: [UInt8] = []
                stream.onRead = { bytes in
                    received += bytes
                    if received.contains(UInt8(ascii: "\n")) {
                        answer.finish(outcome(statusLineIn: received))
                        stream.close()
                    }
                }
                stream.onClose = { _ in answer.finish(.unhealthy("connection closed without an answer")) }
                stream.write(request(host: host, port: port, path: path))
            }
        }
        return answer.wait(timeout: timeout) ?? .unhealthy("no answer in time")
    }
}

/// The first outcome of a TLS check, handed from the event loop to the waiting caller.
private final class TLSAnswer: Sendable {
    private let outcome = Locked<HealthProbe.Outcome?>(nil)
    /// Keeps the client stream alive until the check is over.
    private let stream = Locked<ByteStream?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func hold(_ stream: ByteStream) { self.stream.withLock { $0 = stream } }

    func finish(_ result: HealthProbe.Outcome) {
        let first = outcome.withLock { outcome -> Bool in
            guard outcome == nil else { return false }
            outcome = result
            return true
        }
        if first { done.signal() }
    }

    func wait(timeout: Duration) -> HealthProbe.Outcome? {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        _ = done.wait(timeout: .now() + seconds)
        defer { stream.withLock { $0 = nil } }
        return outcome.withLock { $0 }
    }
}

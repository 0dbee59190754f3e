import NetCore
import Streams

/// The upstream HTTP/1.1 client on NetCore: keep-alive pool per origin, TLS with
/// certificate and hostname verification for https, gzip bodies decoded. Disposing a
/// request in flight closes its connection.
public final class HTTPUpstreamTransport: UpstreamTransport {
    let pool: ConnectionPool
    let connectTimeout: Duration
    let tls: TLSContext?
    let loops: EventLoopGroup

    /// - Parameter tlsConfiguration: how https origins are verified (system CAs by default).
    public init(
        connectTimeout: Duration = .seconds(5), maxIdlePerOrigin: Int = 64,
        tlsConfiguration: TLSConfiguration = .client(), loops: EventLoopGroup = .shared
    ) {
        pool = ConnectionPool(maxIdlePerOrigin: maxIdlePerOrigin)
        self.connectTimeout = connectTimeout
        // Without a usable TLS context https requests fail; plain http still works.
        tls = try? TLSContext(configuration: tlsConfiguration)
        self.loops = loops
    }

    public var idleConnections: Int { pool.idleCount }

    public func send(_ request: UpstreamRequest) -> DataStream<UpstreamResponse> {
        DataStream { watcher in
            let exchange = ClientExchange(request: request, transport: self, watcher: watcher)
            exchange.start()
            return Disposable { exchange.cancel() }
        }
    }
}

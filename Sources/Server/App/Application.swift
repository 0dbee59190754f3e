import ConcurrencyHelpers
import Dispatch
import Domain
import HTTP
import Logging
import NetCore
import Streams

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The assembled service: upstream (real or embedded demo), routes, metrics,
/// access log, SSE heartbeats and the HTTP server, with graceful shutdown.
///
///     let app = Application(configuration: configuration, logger: logger)
///     let port = try app.start()
///     app.shutdown { … }          // or app.serveUntilTerminated() for SIGTERM/SIGINT
public final class Application: Sendable {
    public let configuration: ServiceConfiguration
    public let metrics: ServiceMetrics
    let logger: Logger
    private let heartbeat: HeartbeatClock
    private let responder: EventStreamResponder
    private let shutdownFlag = ShutdownFlag()
    private let state = Locked(Running())

    private struct Running: Sendable {
        var server: HTTPServer?
        var upstream: UpstreamServices?
        var eventFeed: Disposable?
        var shutdownWaiters: [@Sendable () -> Void] = []
        var stopped = false
    }

    /// `metrics` is this application's own registry (see `ServiceMetrics` for why not the global one).
    public init(configuration: ServiceConfiguration, logger: Logger, metrics: ServiceMetrics = ServiceMetrics()) {
        self.configuration = configuration
        self.logger = logger
        self.metrics = metrics
        heartbeat = HeartbeatClock(period: configuration.sseHeartbeat)
        responder = EventStreamResponder(heartbeat: heartbeat, subscribers: metrics.sseSubscribers)
    }

    /// Starts everything; returns the port the API listens on. The first log line names the address.
    /// Throws `ConfigurationError` naming the flag when the address, port or TLS files are unusable.
    @discardableResult
    public func start() throws -> Int {
        let fileLimit = FileDescriptorLimit.raiseToHardLimit()
        let upstream: UpstreamServices
        do {
            upstream = try UpstreamServices.start(configuration, metrics: metrics.upstream())
        } catch {
            throw ConfigurationError(.upstream, value: nil, reason: "cannot start the embedded demo upstream: \(error)")
        }
        let feed = PipelineEventFeed(hub: upstream.hub)
        let server = makeServer(upstream: upstream, feed: feed)
        let port: Int
        do {
            port = try server.start()
        } catch {
            upstream.stop()
            throw StartupFailure.configurationError(for: error, configuration: configuration)
        }
        let feedSubscription = feed.start(clock: configuration.eventsClock)
        heartbeat.start()
        state.withLock {
            $0.server = server
            $0.upstream = upstream
            $0.eventFeed = feedSubscription
        }
        let scheme = configuration.tls == nil ? "http" : "https"
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        logger.info("listening on \(scheme)://\(host):\(port)", metadata: [
            "address": .string("\(host):\(port)"),
            "open_files_limit": .stringConvertible(fileLimit),
            "upstream": .string(configuration.upstream?.absoluteString ?? upstream.demoServer?.baseURL.map { "embedded demo at \($0.absoluteString)" } ?? "embedded demo"),
        ])
        return port
    }

    private func makeServer(upstream: UpstreamServices, feed: PipelineEventFeed) -> HTTPServer {
        let shutdownFlag = self.shutdownFlag
        let readiness = ReadinessRoute(probe: { upstream.isUpstreamReachable() }, isShuttingDown: { shutdownFlag.isRaised })
        let router = ServiceRouter(
            metrics: metrics, responder: responder, eventFeed: feed,
            readiness: readiness, userRoutes: upstream.routes(responder: responder),
            corsOrigins: configuration.corsOrigins
        ).build()
        let accessLog = AccessLog(logger: logger)
        let observer = HTTPServerObserver(requestCompleted: { request in accessLog.record(request) })
        return HTTPServer(configuration: serverConfiguration(), router: router, observer: observer, metrics: metrics.http)
    }

    func serverConfiguration() -> HTTPServerConfiguration {
        var server = HTTPServerConfiguration(host: configuration.host, port: configuration.port)
        server.timeouts.header = configuration.headerTimeout
        server.timeouts.idle = configuration.idleTimeout
        server.limits.maxBodyBytes = configuration.maxBodyBytes
        server.limits.maxConnections = configuration.maxConnections
        server.tls = configuration.tls.map { .server(certificateChainFile: $0.certificate, privateKeyFile: $0.privateKey) }
        return server
    }

    /// The API port once started.
    public var port: Int? { state.withLock { $0.server?.port } }

    public var isShuttingDown: Bool { shutdownFlag.isRaised }

    /// Graceful shutdown within `--shutdown-timeout`: stop accepting, let in-flight
    /// requests finish, end SSE feeds with `event: shutdown`, then stop the demo
    /// upstream. `completion` runs once all of that is done (every caller's).
    public func shutdown(completion: @escaping @Sendable () -> Void = {}) {
        let alreadyStopped = state.withLock { state -> Bool in
            if !state.stopped { state.shutdownWaiters.append(completion) }
            return state.stopped
        }
        if alreadyStopped { completion(); return }
        guard shutdownFlag.raise() else { return }
        let (server, upstream, feed) = state.withLock { ($0.server, $0.upstream, $0.eventFeed) }
        logger.info("shutting down", metadata: ["deadline_s": .stringConvertible(configuration.shutdownTimeout.seconds)])
        let finish: @Sendable () -> Void = { [self] in
            heartbeat.stop()
            feed?.dispose()
            Task {
                await upstream?.shutdown()
                let waiters = state.withLock { state -> [@Sendable () -> Void] in
                    state.stopped = true
                    defer { state.shutdownWaiters = [] }
                    return state.shutdownWaiters
                }
                logger.info("stopped")
                for waiter in waiters { waiter() }
            }
        }
        if let server {
            server.shutdown(deadline: configuration.shutdownTimeout, completion: finish)
        } else {
            finish()
        }
    }

    /// Starts the service and blocks until SIGTERM or SIGINT has shut it down
    /// gracefully. Signal handlers are installed before the first log line, so a
    /// signal sent as soon as the address is printed is never fatal.
    public func serveUntilTerminated() throws {
        let done = DispatchSemaphore(value: 0)
        let signals = SignalWatcher(signals: [SIGTERM, SIGINT]) { [self] signal in
            logger.info("received \(signal == SIGTERM ? "SIGTERM" : "SIGINT")")
            shutdown { done.signal() }
        }
        defer { signals.cancel() }
        try start()
        done.wait()
    }
}

import ConcurrencyHelpers
import NetCore
import Streams
import Synchronization

/// One request/response on a pooled or fresh connection. Connection work happens on the
/// connection's event loop; `cancel()` may come from any thread and closes the socket.
final class ClientExchange: Sendable {
    private struct State {
        var cancelled = false
        var finished = false
        var stream: ByteStream?
        var parser: HTTPResponseParser
        var receivedAny = false
    }

    private let request: UpstreamRequest
    private let transport: HTTPUpstreamTransport
    private let watcher: Watcher<UpstreamResponse>
    private let origin: ConnectionPool.Origin
    private let state: Locked<State>

    init(request: UpstreamRequest, transport: HTTPUpstreamTransport, watcher: Watcher<UpstreamResponse>) {
        self.request = request
        self.transport = transport
        self.watcher = watcher
        origin = .init(secure: request.isSecure, host: request.host, port: request.port)
        state = Locked(State(parser: HTTPResponseParser(requestMethod: request.method)))
    }

    func start() {
        if let pooled = transport.pool.checkout(origin) {
            pooled.loop.execute { self.use(pooled, reused: true) }
        } else {
            connect()
        }
    }

    func cancel() {
        let stream = state.withLock { state -> ByteStream? in
            state.cancelled = true
            return state.finished ? nil : state.stream
        }
        guard let stream else { return }
        stream.loop.executeSoon { stream.close() }
    }

    private func connect() {
        guard !state.withLock({ $0.cancelled }) else { return }
        if origin.secure && transport.tls == nil {
            fail(.connection("TLS is unavailable"))
            return
        }
        ByteStreamConnector.connect(
            host: origin.host, port: origin.port, tls: origin.secure ? transport.tls : nil,
            timeout: transport.connectTimeout, loop: transport.loops.next()
        ) { result in
            switch result {
            case .success(let stream): self.use(stream, reused: false)
            case .failure(let error): self.fail(.connection(String(describing: error)))
            }
        }
    }

    /// On `stream.loop`: sends the request and reads the answer.
    private func use(_ stream: ByteStream, reused: Bool) {
        let proceed = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            state.stream = stream
            return true
        }
        guard proceed, !stream.isClosed else {
            stream.close()
            if proceed { connect() }
            return
        }
        stream.onRead = { bytes in self.received(Array(bytes), on: stream) }
        stream.onClose = { reason in self.closed(stream, reason: reason, reused: reused) }
        stream.write(requestBytes())
    }

    private func received(_ bytes: [UInt8], on stream: ByteStream) {
        let progress = state.withLock { state -> Result<HTTPResponseParser.Progress, HTTPResponseParser.Failure> in
            state.receivedAny = true
            do { return .success(try state.parser.feed(bytes)) } catch let failure as HTTPResponseParser.Failure {
                return .failure(failure)
            } catch {
                return .failure(.malformed(String(describing: error)))
            }
        }
        switch progress {
        case .success(.needMore):
            return
        case .success(.complete(let response, let reusable)):
            guard markFinished() else { return }
            stream.onRead = nil
            stream.onClose = nil
            if reusable { transport.pool.checkin(stream, for: origin) } else { stream.close() }
            watcher.data(response)
            watcher.end()
        case .failure(let failure):
            stream.close()
            fail(.malformed(String(describing: failure)))
        }
    }

    private func closed(_ stream: ByteStream, reason: ByteStream.CloseReason, reused: Bool) {
        let (cancelled, receivedAny, ending) = state.withLock { state in
            (state.cancelled, state.receivedAny, Result { try state.parser.connectionClosed() })
        }
        if cancelled {
            _ = markFinished()
            return
        }
        // A pooled connection the server closed before answering: try a fresh one, once.
        if reused && !receivedAny {
            state.withLock { $0.stream = nil }
            connect()
            return
        }
        switch ending {
        case .success(let response):
            guard markFinished() else { return }
            watcher.data(response)
            watcher.end()
        case .failure:
            fail(.connection("connection closed before the response was complete (\(reason))"))
        }
    }

    private func fail(_ error: UpstreamError) {
        guard markFinished() else { return }
        watcher.error(error)
    }

    private func markFinished() -> Bool {
        state.withLock { state in
            guard !state.finished else { return false }
            state.finished = true
            return true
        }
    }

    private func requestBytes() -> [UInt8] {
        var head = "\(request.method) \(request.target) HTTP/1.1\r\nHost: \(request.hostHeader)\r\n"
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            head += "\(name): \(value)\r\n"
        }
        head += "Connection: keep-alive\r\n\r\n"
        return Array(head.utf8)
    }
}

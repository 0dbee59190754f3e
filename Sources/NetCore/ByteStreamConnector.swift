// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Dispatch

/// Opens client `ByteStream`s: resolve, non-blocking connect with a timeout,
/// then (for TLS) the handshake with SNI and hostname verification.
public enum ByteStreamConnector {
    /// Connects to `host:port`; `completion` runs on `loop` with a started,
    /// ready stream (handshake done for TLS) or the error.
    public static func connect(
        host: String,
        port: Int,
        tls: TLSContext? = nil,
        timeout: Duration = .seconds(10),
        loop: EventLoop = EventLoopGroup.shared.next(),
        completion: @escaping @Sendable (Result<ByteStream, Error>) -> Void
    ) {
        // getaddrinfo may block on DNS, so it never runs on an event loop.
        DispatchQueue.global().async {
            let addresses: [SocketAddress]
            do { addresses = try SocketAddress.resolve(host: host, port: port) } catch {
                loop.execute { completion(.failure(error)) }
                return
            }
            loop.execute {
                let attempt = ConnectAttempt(host: host, addresses: addresses, tls: tls, timeout: timeout, loop: loop, completion: completion)
                attempt.begin()
            }
        }
    }
}

/// One connect in progress: tries each resolved address in turn until one
/// connects, all fail, or the overall timeout passes.
// @unchecked: confined to its EventLoop's serial queue, which serialises every access the way a lock would.
private final class ConnectAttempt: @unchecked Sendable {
    private let host: String
    private var addresses: [SocketAddress]
    private let tls: TLSContext?
    private let loop: EventLoop
    private var completion: (@Sendable (Result<ByteStream, Error>) -> Void)?
    private var timer: LoopTimer?
    private var waiting: (Socket, LoopIOSource)?
    private var stream: ByteStream?
    private var lastError: Error = SocketError("connect", code: 111)
    private let timeout: Duration

    init(host: String, addresses: [SocketAddress], tls: TLSContext?, timeout: Duration, loop: EventLoop, completion: @escaping @Sendable (Result<ByteStream, Error>) -> Void) {
        self.host = host
        self.addresses = addresses
        self.tls = tls
        self.timeout = timeout
        self.loop = loop
        self.completion = completion
    }

    func begin() {
        let timer = loop.makeTimer()
        timer.schedule(deadline: .now() + .nanoseconds(Int(timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)))
        timer.setEventHandler { [self] in
            stream?.close(.failed("timed out"))
            finish(.failure(SocketError.timedOut))
        }
        self.timer = timer
        timer.resume()
        tryNextAddress()
    }

    private func tryNextAddress() {
        guard completion != nil else { return }
        guard !addresses.isEmpty else { finish(.failure(lastError)); return }
        let address = addresses.removeFirst()
        do {
            let (socket, connected) = try Socket.startConnect(to: address)
            if connected { established(socket, address: address); return }
            let source = loop.makeWriteSource(fileDescriptor: socket.descriptor)
            source.setEventHandler { [self] in
                source.cancel()
                waiting = nil
                let code = socket.pendingError()
                if code == 0 {
                    established(socket, address: address)
                } else {
                    socket.close()
                    lastError = SocketError("connect \(address)", code: code)
                    tryNextAddress()
                }
            }
            waiting = (socket, source)
            source.resume()
        } catch {
            lastError = error
            tryNextAddress()
        }
    }

    private func established(_ socket: Socket, address: SocketAddress) {
        guard completion != nil else { socket.close(); return }
        let session: TLSSession?
        do { session = try tls.map { try TLSSession(context: $0, serverName: host) } } catch {
            socket.close()
            finish(.failure(error))
            return
        }
        let stream = ByteStream(socket: socket, loop: loop, remoteAddress: address.description, tls: session)
        self.stream = stream
        stream.onReady = { [self, unowned stream] in
            stream.onClose = nil
            finish(.success(stream))
        }
        stream.onClose = { [self] reason in
            finish(.failure(TLSError("connection closed during TLS handshake: \(reason)")))
        }
        stream.start()
    }

    private func finish(_ result: Result<ByteStream, Error>) {
        guard let completion else { return }
        self.completion = nil
        timer?.cancel()
        timer = nil
        if let (socket, source) = waiting {
            source.setCancelHandler { socket.close() }
            source.cancel()
            waiting = nil
        }
        stream = nil
        completion(result)
    }
}

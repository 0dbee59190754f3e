// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A non-blocking TCP socket file descriptor and the calls made on it.
///
/// A plain value: whoever opened it decides when to `close()` it
/// (normally the `ByteStream` or `Listener` that owns it).
public struct Socket: Sendable, Hashable {
    public let descriptor: Int32

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Outcome of a non-blocking read or write.
    public enum IOResult: Sendable, Equatable {
        case transferred(Int)
        case wouldBlock
        case closed
        case failed(Int32)
    }

    /// Outcome of a non-blocking accept.
    public enum AcceptResult: Sendable {
        case accepted(Socket, SocketAddress)
        case wouldBlock
        case failed(SocketError)
    }

    /// Opens a listening socket on `host:port` (port 0 picks a free port) with
    /// SO_REUSEADDR, non-blocking, and the given accept backlog; with `reusePort`, also
    /// SO_REUSEPORT, so several sockets (one per event loop) can listen on the same port.
    public static func listen(host: String, port: Int, backlog: Int32 = 4096, reusePort: Bool = false) throws -> Socket {
        SignalPipe.ignore()
        var lastError = SocketError("bind", code: EADDRNOTAVAIL)
        for address in try SocketAddress.resolve(host: host, port: port, passive: true) {
            let fd = makeStreamSocket(family: address.family)
            guard fd >= 0 else { lastError = SocketError("socket"); continue }
            let socket = Socket(descriptor: fd)
            socket.setOption(SO_REUSEADDR, 1)
            if reusePort { socket.setOption(SO_REUSEPORT, 1) }
            if address.family == AF_INET6 { _ = setsockoptInt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, 0) }
            let bound = address.withSockaddr { bind(fd, $0, $1) }
            guard bound == 0 else { lastError = SocketError("bind \(address)"); socket.close(); continue }
            guard systemListen(fd, backlog) == 0 else { lastError = SocketError("listen"); socket.close(); continue }
            socket.setNonBlocking()
            return socket
        }
        throw lastError
    }

    /// Starts a non-blocking connect to `address`. Returns the socket and
    /// whether the connection is already established (else wait for writability
    /// and check `pendingError()`).
    public static func startConnect(to address: SocketAddress) throws -> (Socket, connected: Bool) {
        SignalPipe.ignore()
        let fd = makeStreamSocket(family: address.family)
        guard fd >= 0 else { throw SocketError("socket") }
        let socket = Socket(descriptor: fd)
        socket.setNonBlocking()
        socket.setNoDelay()
        let result = address.withSockaddr { systemConnect(fd, $0, $1) }
        if result == 0 { return (socket, true) }
        let code = errno
        if code == EINPROGRESS || code == EINTR { return (socket, false) }
        socket.close()
        throw SocketError("connect \(address)", code: code)
    }

    public func accept() -> AcceptResult {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemAccept(descriptor, $0, &length) }
        }
        if fd < 0 {
            let code = errno
            if code == EAGAIN || code == EWOULDBLOCK || code == EINTR || code == ECONNABORTED { return .wouldBlock }
            return .failed(SocketError("accept", code: code))
        }
        let socket = Socket(descriptor: fd)
        socket.setNonBlocking()
        socket.setNoDelay()
        return .accepted(socket, SocketAddress(storage: storage, length: length))
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        while true {
            let n = systemRead(descriptor, buffer.baseAddress, buffer.count)
            if n > 0 { return .transferred(n) }
            if n == 0 { return .closed }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
            return .failed(code)
        }
    }

    public func write(_ buffer: UnsafeRawBufferPointer) -> IOResult {
        while true {
            let n = send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
            if n >= 0 { return .transferred(n) }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
            if code == EPIPE || code == ECONNRESET { return .closed }
            return .failed(code)
        }
    }

    /// The error of a finished non-blocking connect (0 when it succeeded).
    public func pendingError() -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &value, &length)
        return value
    }

    public func localAddress() -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return result == 0 ? SocketAddress(storage: storage, length: length) : nil
    }

    public func setNonBlocking() {
        let flags = fcntl(descriptor, F_GETFL, 0)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    }

    /// Disables Nagle: a response goes out as soon as it is written.
    public func setNoDelay() {
        _ = Socket.setsockoptInt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
    }

    public func setOption(_ option: Int32, _ value: Int32) {
        _ = Socket.setsockoptInt(descriptor, SOL_SOCKET, option, value)
    }

    /// Half-closes the sending side so the peer reads end-of-stream after our last bytes.
    public func shutdownWrite() {
        _ = systemShutdown(descriptor, Int32(SHUT_WR))
    }

    public func close() {
        _ = systemClose(descriptor)
    }

    private static func makeStreamSocket(family: Int32) -> Int32 {
        #if canImport(Glibc)
        return socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        return socket(family, SOCK_STREAM, 0)
        #endif
    }

    private static func setsockoptInt(_ fd: Int32, _ level: Int32, _ option: Int32, _ value: Int32) -> Int32 {
        var value = value
        return setsockopt(fd, level, option, &value, socklen_t(MemoryLayout<Int32>.size))
    }
}

// The C functions share names with Socket's methods; these aliases keep calls unambiguous.
private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { connect(fd, address, length) }
private func systemAccept(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>) -> Int32 { accept(fd, address, length) }
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func systemShutdown(_ fd: Int32, _ how: Int32) -> Int32 { shutdown(fd, how) }
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation

/// A TCP forwarder on a loopback port of its own, to stand between Redis nodes (or a client and
/// Redis) and misbehave on demand: `pause()` stops moving bytes (what it holds stays held, like a
/// partition), `cutAll()` drops every connection without forwarding what it holds, `retarget(to:)`
/// sends new connections elsewhere (an address that stays while the node behind it changes).
///
/// One accept thread and two pump threads per connection, blocking sockets; `stop()` (or the
/// last reference going) closes everything. It only ever connects to 127.0.0.1.
// @unchecked: every mutable field is behind `condition`.
public final class TCPRelay: @unchecked Sendable {
    public let port: Int
    private let listener: Int32
    private let condition = NSCondition()
    private var target: Int
    private var flowing = true
    private var stopped = false
    /// Each live connection's two descriptors, by connection number.
    private var connections: [Int: (Int32, Int32)] = [:]
    private var nextConnection = 0

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(to targetPort: Int) throws {
        target = targetPort
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(listener, 64) == 0 else {
            close(listener)
            throw Failure(description: "relay cannot listen: \(String(cString: strerror(errno)))")
        }
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        self.listener = listener
        port = Int(UInt16(bigEndian: local.sin_port))
        let thread = Thread { [weak self, listener] in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0, let self else { if client >= 0 { close(client) }; return }
                self.relay(client)
            }
        }
        thread.start()
    }

    deinit { stop() }

    /// Stops moving bytes, both ways, on every connection; connections stay open.
    public func pause() {
        condition.withLock { flowing = false }
    }

    public func resume() {
        condition.withLock {
            flowing = true
            condition.broadcast()
        }
    }

    /// New connections go to `targetPort`; existing ones are cut.
    public func retarget(to targetPort: Int) {
        condition.withLock { target = targetPort }
        cutAll()
    }

    /// Closes every connection; bytes held (paused) are dropped, never forwarded.
    public func cutAll() {
        condition.withLock {
            for (number, (a, b)) in connections {
                shutdown(a, Int32(SHUT_RDWR))
                shutdown(b, Int32(SHUT_RDWR))
                connections[number] = (-1, -1)
            }
            condition.broadcast()
        }
    }

    public func stop() {
        let alreadyStopped = condition.withLock { () -> Bool in
            defer { stopped = true }
            return stopped
        }
        guard !alreadyStopped else { return }
        cutAll()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func relay(_ client: Int32) {
        let targetPort = condition.withLock { target }
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: targetPort)
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard connected == 0 else {
            close(upstream)
            close(client)
            return
        }
        let number = condition.withLock { () -> Int in
            defer { nextConnection += 1 }
            connections[nextConnection] = (client, upstream)
            return nextConnection
        }
        let ends = Ends()
        for (from, to) in [(client, upstream), (upstream, client)] {
            Thread { [weak self] in
                self?.pump(from: from, to: to, connection: number)
                if ends.finish() {
                    self?.forget(number)
                    close(client)
                    close(upstream)
                }
            }.start()
        }
    }

    /// Copies until either side ends or the connection is cut; bytes read while paused wait here.
    private func pump(from source: Int32, to destination: Int32, connection: Int) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            let live = condition.withLock { () -> Bool in
                while !flowing, isLive(connection) { condition.wait() }
                return isLive(connection)
            }
            guard live else { break }
            var sent = 0
            while sent < count {
                let written = buffer.withUnsafeBytes { send(destination, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL)) }
                guard written > 0 else { break }
                sent += written
            }
            guard sent == count else { break }
        }
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(destination, Int32(SHUT_RDWR))
    }

    private func isLive(_ connection: Int) -> Bool {
        connections[connection].map { $0.0 >= 0 } ?? false
    }

    private func forget(_ connection: Int) {
        condition.withLock { _ = connections.removeValue(forKey: connection) }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

/// Counts a connection's two pumps out: the last one closes the descriptors.
// @unchecked: the count is behind a lock.
private final class Ends: @unchecked Sendable {
    private let lock = NSLock()
    private var remaining = 2

    func finish() -> Bool {
        lock.withLock {
            remaining -= 1
            return remaining == 0
        }
    }
}

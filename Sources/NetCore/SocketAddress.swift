// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 socket address.
public struct SocketAddress: Sendable, CustomStringConvertible {
    var storage: sockaddr_storage
    public let length: socklen_t

    init(storage: sockaddr_storage, length: socklen_t) {
        self.storage = storage
        self.length = length
    }

    public var family: Int32 { Int32(storage.ss_family) }

    /// Resolves `host` (a name or numeric address) for `port`; numeric hosts never hit DNS.
    /// Throws `ResolutionError` when the name does not resolve.
    public static func resolve(host: String, port: Int, passive: Bool = false) throws -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_flags = passive ? AI_PASSIVE : 0
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &result)
        guard status == 0, let first = result else { throw ResolutionError(host: host, status: status) }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { raw in
                raw.copyMemory(from: UnsafeRawBufferPointer(start: info.pointee.ai_addr, count: Int(info.pointee.ai_addrlen)))
            }
            addresses.append(SocketAddress(storage: storage, length: info.pointee.ai_addrlen))
            cursor = info.pointee.ai_next
        }
        return addresses
    }

    public var port: Int {
        withUnsafeBytes(of: storage) { raw in
            if family == AF_INET6 {
                return Int(UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port))
            }
            return Int(UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port))
        }
    }

    /// The numeric host, e.g. `127.0.0.1` or `::1`.
    public var host: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        withUnsafeBytes(of: storage) { raw in
            if family == AF_INET6 {
                var address = raw.load(as: sockaddr_in6.self).sin6_addr
                _ = inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
            } else {
                var address = raw.load(as: sockaddr_in.self).sin_addr
                _ = inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
            }
        }
        return String(nulTerminated: buffer)
    }

    public var description: String {
        family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    public func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafeBytes(of: storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }
}

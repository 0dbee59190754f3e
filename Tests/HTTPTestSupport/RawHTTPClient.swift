// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import NetCore

#if canImport(Glibc)
import Glibc
#endif

/// A deliberately dumb blocking HTTP client over a raw TCP socket, for tests
/// that need byte-level control (split writes, malformed requests, pipelining)
/// and must see exactly what the server sends. Every read has a timeout, so a
/// test fails instead of hanging.
public final class RawHTTPClient {
    public struct Response {
        public var status: Int
        public var reason: String
        public var version: String
        public var headers: [(String, String)]
        public var body: [UInt8]

        public func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
        public var bodyText: String { String(decoding: body, as: UTF8.self) }
        public var bodyJSON: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        }
    }

    public enum Failure: Error, CustomStringConvertible {
        case connect(Int32)
        case timedOut
        case closedEarly(received: Int)
        case malformed(String)

        public var description: String {
            switch self {
            case .connect(let code): "connect failed (errno \(code))"
            case .timedOut: "timed out waiting for the server"
            case .closedEarly(let n): "connection closed after \(n) bytes"
            case .malformed(let why): "malformed response: \(why)"
            }
        }
    }

    public let fd: Int32
    private var buffer: [UInt8] = []
    public private(set) var isClosedByPeer = false

    public init(port: Int, host: String = "127.0.0.1", timeout: TimeInterval = 5) throws {
        let address = try SocketAddress.resolve(host: host, port: port)[0]
        fd = socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - floor(timeout)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let result = address.withSockaddr { connect(fd, $0, $1) }
        if result != 0 {
            let code = errno
            Glibc.close(fd)
            throw Failure.connect(code)
        }
    }

    deinit { Glibc.close(fd) }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }  // SO_SNDTIMEO sockets are not restarted after a signal either
            if n <= 0 { throw Failure.closedEarly(received: offset) }
            offset += n
        }
    }

    /// Reads one response. `forHead` = the request was HEAD (no body follows the head).
    public func readResponse(forHead: Bool = false) throws -> Response {
        let headEnd = try readUntil([13, 10, 13, 10])
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2).map(String.init)
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure.malformed(head) }
        let headers = lines.map { line -> (String, String) in
            let parts = line.split(separator: ":", maxSplits: 1).map(String.init)
            return (parts[0], parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
        var response = Response(status: status, reason: statusLine.count > 2 ? statusLine[2] : "", version: statusLine[0], headers: headers, body: [])
        if forHead || status / 100 == 1 || status == 204 || status == 304 { return response }
        if let length = response.header("Content-Length").flatMap(Int.init) {
            try fill(length)
            response.body = Array(buffer[..<length])
            buffer.removeFirst(length)
        } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            response.body = try readChunkedBody()
        } else {
            response.body = try readToEnd()
        }
        return response
    }

    /// Reads chunks of a chunked body as they arrive, one call per chunk; nil at the last chunk.
    public func readChunk() throws -> [UInt8]? {
        let lineEnd = try readUntil([13, 10])
        let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";")[0]
        guard let size = Int(sizeText, radix: 16) else { throw Failure.malformed("chunk size \(sizeText)") }
        buffer.removeFirst(lineEnd + 2)
        if size == 0 {
            let end = try readUntil([13, 10])
            buffer.removeFirst(end + 2)
            return nil
        }
        try fill(size + 2)
        let chunk = Array(buffer[..<size])
        buffer.removeFirst(size + 2)
        return chunk
    }

    public func readChunkedBody() throws -> [UInt8] {
        var body: [UInt8] = []
        while let chunk = try readChunk() { body += chunk }
        return body
    }

    /// Reads until the server closes the connection.
    public func readToEnd() throws -> [UInt8] {
        while try receive() {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// True when the server closes the connection (after sending anything) before the read timeout.
    public func waitForClose() -> Bool {
        do {
            while try receive() {}
            return true
        } catch {
            return isClosedByPeer
        }
    }

    public func shutdownWrite() { Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// Bytes received but not consumed by a read call.
    public var unread: [UInt8] { buffer }

    // MARK: - Plumbing

    private func readUntil(_ terminator: [UInt8]) throws -> Int {
        var searchFrom = 0
        while true {
            if buffer.count >= terminator.count {
                for index in searchFrom...(buffer.count - terminator.count) where buffer[index..<(index + terminator.count)].elementsEqual(terminator) {
                    return index
                }
                searchFrom = buffer.count - terminator.count + 1
            }
            guard try receive() else { throw Failure.closedEarly(received: buffer.count) }
        }
    }

    private func fill(_ count: Int) throws {
        while buffer.count < count {
            guard try receive() else { throw Failure.closedEarly(received: buffer.count) }
        }
    }

    /// One recv; false at end of stream.
    @discardableResult
    private func receive() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { receiveRestartingAfterSignals(fd, into: $0) }
        if n > 0 { buffer += chunk[..<n]; return true }
        if n == 0 { isClosedByPeer = true; return false }
        if errno == ECONNRESET { isClosedByPeer = true; return false }
        throw Failure.timedOut
    }
}

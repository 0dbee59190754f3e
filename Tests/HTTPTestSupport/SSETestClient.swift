// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import NetCore

#if canImport(Glibc)
import Glibc
#endif

/// A blocking Server-Sent Events client over a raw socket that parses the
/// chunked event stream as it arrives, message by message. Every read has a
/// timeout, so a test fails instead of hanging.
public final class SSETestClient {
    public typealias Message = SSEReader.Message

    public enum Failure: Error { case closed, timedOut, malformed(String) }

    public private(set) var status = 0
    public private(set) var headers: [String: String] = [:]
    private let fd: Int32
    private var raw: [UInt8] = []       // bytes received, not yet de-chunked
    private var reader = SSEReader()    // parses the de-chunked event-stream bytes
    private var parsed: [Message] = []  // messages parsed, not yet returned
    public private(set) var ended = false      // the last chunk arrived

    public init(port: Int, target: String, headers extra: [String: String] = [:], timeout: TimeInterval = 5) throws {
        let address = try SocketAddress.resolve(host: "127.0.0.1", port: port)[0]
        let descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
        fd = descriptor
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        guard address.withSockaddr({ connect(descriptor, $0, $1) }) == 0 else { throw Failure.closed }
        let lines = extra.map { "\($0.key): \($0.value)\r\n" }.joined()
        let request = Array("GET \(target) HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\(lines)\r\n".utf8)
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var head: [UInt8] = []
        while true {
            if let end = Self.find([13, 10, 13, 10], in: raw) {
                head = Array(raw[..<end])
                raw.removeFirst(end + 4)
                break
            }
            try receive()
        }
        let headLines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        status = Int(headLines[0].split(separator: " ")[1]) ?? 0
        var parsed: [String: String] = [:]
        for line in headLines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { parsed[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        headers = parsed
    }

    deinit { close(fd) }

    /// The next message (comment-only messages included), or nil when the stream ended cleanly.
    public func next() throws -> Message? {
        while parsed.isEmpty {
            if ended { return nil }
            try dechunk()
        }
        return parsed.removeFirst()
    }

    /// Messages until the stream ends (skipping comment-only ones when asked).
    public func all(skippingComments: Bool = true) throws -> [Message] {
        var messages: [Message] = []
        while let message = try next() {
            if skippingComments && message.id == nil && !message.isEvent { continue }
            messages.append(message)
        }
        return messages
    }

    /// The next message that is not just a comment.
    public func nextEvent() throws -> Message? {
        while let message = try next() {
            if message.id != nil || message.isEvent { return message }
        }
        return nil
    }

    private func dechunk() throws {
        while true {
            if let lineEnd = Self.find([13, 10], in: raw) {
                let sizeText = String(decoding: raw[..<lineEnd], as: UTF8.self)
                guard let size = Int(sizeText, radix: 16) else { throw Failure.malformed(sizeText) }
                if size == 0 {
                    ended = true
                    return
                }
                if raw.count >= lineEnd + 2 + size + 2 {
                    parsed += reader.messages(completedBy: Array(raw[(lineEnd + 2)..<(lineEnd + 2 + size)]))
                    raw.removeFirst(lineEnd + 2 + size + 2)
                    return
                }
            }
            try receive()
        }
    }

    private func receive() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { receiveRestartingAfterSignals(fd, into: $0) }
        if n > 0 { raw += chunk[..<n]; return }
        if n == 0 { throw Failure.closed }
        throw Failure.timedOut
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }
}

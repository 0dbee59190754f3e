// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The field names clients send on almost every request, and API servers on almost every
/// answer, spelled as they send them: such a name becomes a string literal's string instead of
/// a new string decoded and validated from the bytes (names over 15 bytes, as
/// `X-RateLimit-Remaining`, also a heap allocation). Any other spelling or name is decoded as
/// usual, so this changes only the cost.
enum CommonFieldName {
    static func string(for name: UnsafeRawBufferPointer) -> String? {
        switch name.count {
        case 4:
            if spelled(name, "Host") { return "Host" }
            if spelled(name, "Date") { return "Date" }
            if spelled(name, "ETag") { return "ETag" }
            if spelled(name, "Vary") { return "Vary" }
            return spelled(name, "Link") ? "Link" : nil
        case 6:
            if spelled(name, "Accept") { return "Accept" }
            if spelled(name, "Cookie") { return "Cookie" }
            if spelled(name, "Server") { return "Server" }
            return spelled(name, "Origin") ? "Origin" : nil
        case 7: return spelled(name, "Referer") ? "Referer" : nil
        case 10:
            if spelled(name, "User-Agent") { return "User-Agent" }
            return spelled(name, "Connection") ? "Connection" : nil
        case 12:
            if spelled(name, "Content-Type") { return "Content-Type" }
            return spelled(name, "X-Request-ID") ? "X-Request-ID" : nil
        case 13:
            if spelled(name, "Cache-Control") { return "Cache-Control" }
            if spelled(name, "If-None-Match") { return "If-None-Match" }
            if spelled(name, "Last-Modified") { return "Last-Modified" }
            return spelled(name, "Last-Event-ID") ? "Last-Event-ID" : nil
        case 14: return spelled(name, "Content-Length") ? "Content-Length" : nil
        case 15:
            if spelled(name, "Accept-Encoding") { return "Accept-Encoding" }
            return spelled(name, "Accept-Language") ? "Accept-Language" : nil
        case 16:
            if spelled(name, "Content-Encoding") { return "Content-Encoding" }
            return spelled(name, "X-RateLimit-Used") ? "X-RateLimit-Used" : nil
        case 17:
            if spelled(name, "X-RateLimit-Limit") { return "X-RateLimit-Limit" }
            if spelled(name, "X-RateLimit-Reset") { return "X-RateLimit-Reset" }
            return spelled(name, "Transfer-Encoding") ? "Transfer-Encoding" : nil
        case 20: return spelled(name, "X-RateLimit-Resource") ? "X-RateLimit-Resource" : nil
        case 21: return spelled(name, "X-RateLimit-Remaining") ? "X-RateLimit-Remaining" : nil
        default: return nil
        }
    }

    private static func spelled(_ bytes: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
        memcmp(bytes.baseAddress!, name.utf8Start, bytes.count) == 0
    }
}

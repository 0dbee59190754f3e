// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a request is sent with — scheme, host, port, path and query as written — read from
/// an `http(s)` URL's string in one pass over its bytes.
///
/// Foundation's `scheme`, `host`, `port`, `path(percentEncoded:)` and `query(percentEncoded:)`
/// parse the URL again on every call, for an answer that is a few slices of the string, parsed
/// here once. Nil for anything but
/// a plain ASCII `scheme://host[:port][/path][?query][#fragment]` (user info, IP-literal hosts,
/// percent-encoded hosts, an empty or odd port), which keep Foundation's answers.
struct URLParts: Sendable, Equatable {
    /// Whether the URL was read here. False: the URL is not a plain http(s) URL, the other
    /// members say nothing (`init(unscanned:)`), and Foundation answers. A flag, not an optional:
    /// `HTTPClientRequest`'s test of an `Optional<URLParts>` (`!= nil`), its unwrap (`!`) and
    /// its `??` each copied and destroyed the parts (two strings) through the optional's generic
    /// value witnesses, ~640 instructions an exchange over HTTP/1.1 (~21 k a `/users?limit=30`
    /// request, callgrind).
    let scanned: Bool
    let secure: Bool
    let host: String
    /// The port written in the URL, if any.
    let port: Int?
    /// The URL's string, and where its path (maybe empty) and query (without its `?`) lie in its UTF-8.
    private let string: String
    private let path: Range<Int>
    private let query: Range<Int>?

    /// The parts of a plain http(s) URL; nil for any other.
    init?(_ url: URL) {
        self.init(reading: url)
        guard scanned else { return nil }
    }

    /// The parts of `url`, or parts that say nothing (`scanned` false) when it is not a plain
    /// http(s) URL.
    init(reading url: URL) {
        self.init(absoluteString: url.absoluteString)
    }

    /// `init(reading:)` of the URL whose `absoluteString` is `string`.
    init(absoluteString string: String) {
        var string = string
        if let scan = string.withUTF8({ Scan($0) }) {
            self.init(scan, of: string)
        } else {
            self.init(unscanned: ())
        }
    }

    private init(_ scan: Scan, of string: String) {
        scanned = true
        secure = scan.secure
        var string = string
        host = string.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[scan.host]), as: UTF8.self) }
        port = scan.port
        path = scan.path
        query = scan.query
        self.string = string
    }

    /// Parts that say nothing, held in place of those of a URL `init` declines
    /// (`HTTPClientRequest` then asks Foundation): empty strings, nothing allocated.
    init(unscanned: Void) {
        scanned = false
        secure = false
        host = ""
        port = nil
        string = ""
        path = 0..<0
        query = nil
    }

    /// Parts held by one reference, as `URLPartsMemo` keeps them and a request holds them: a copy
    /// of the parts themselves retained and released their two strings through an outlined copy,
    /// ~90 instructions an exchange, and released them again when the request went.
    final class Shared: Sendable {
        let parts: URLParts

        init(_ parts: URLParts) {
            self.parts = parts
        }

        /// Those of every URL `URLParts` declines.
        static let unscanned = Shared(URLParts(unscanned: ()))

        // The parts' writers, called here, where `parts` is borrowed from this object: a request's
        // `storage.shared.parts.writeTarget(…)` copied the parts first (an outlined copy and
        // destroy, ~160 instructions an exchange), to keep them apart from the box's lifetime.

        /// `parts.writeTarget(into:)`.
        func writeTarget(into head: inout HeadWriter) {
            parts.writeTarget(into: &head)
        }

        /// `parts.withTargetBytes(_:)`.
        func withTargetBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
            parts.withTargetBytes(body)
        }
    }

    /// Whether these are the parts of the URL whose `absoluteString` is `string` (`URLPartsMemo`):
    /// the same storage compares at once, an equal copy byte by byte.
    func belong(to string: String) -> Bool {
        self.string == string
    }

    /// How many bytes `scheme://authority` takes at the start of `string`, when `init` reads a
    /// URL of that string; nil otherwise.
    static func originLength(_ string: String) -> Int? {
        var string = string
        return string.withUTF8 { Scan($0)?.path.lowerBound }
    }

    /// How many bytes `writeTarget` writes.
    var targetCount: Int {
        (path.isEmpty ? 1 : path.count) + (query.map { $0.isEmpty ? 0 : 1 + $0.count } ?? 0)
    }

    /// Writes the path (`/` when empty), then `?` and the query when it is not empty.
    func writeTarget(into head: inout HeadWriter) {
        // The string's own bytes where a native string keeps them; a copy made contiguous otherwise.
        if string.utf8.withContiguousStorageIfAvailable({ writeTarget($0, into: &head) }) != nil { return }
        var string = string
        string.withUTF8 { writeTarget($0, into: &head) }
    }

    private func writeTarget(_ utf8: UnsafeBufferPointer<UInt8>, into head: inout HeadWriter) {
        if path.isEmpty {
            head.byte(UInt8(ascii: "/"))
        } else {
            head.bytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8[path])))
        }
        if let query, !query.isEmpty {
            head.byte(UInt8(ascii: "?"))
            head.bytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8[query])))
        }
    }

    /// `body` over what `writeTarget` writes, on the stack.
    func withTargetBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let count = targetCount
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
            var head = HeadWriter(UnsafeMutableRawPointer(buffer.baseAddress!))
            writeTarget(into: &head)
            return body(UnsafeBufferPointer(start: buffer.baseAddress!, count: count))
        }
    }

    /// What `writeTarget` writes, as one `String` written in place: `path + "?" + query` of the
    /// slices below cost the HTTP/2 client (its `:path`) about 1,200 instructions an exchange in
    /// index steps and appends (the figure: Benchmarks/README.md). The slices are its slow twin
    /// (URLPartsTests compares the two).
    var targetString: String {
        String(unsafeUninitializedCapacity: targetCount) { buffer in
            var head = HeadWriter(UnsafeMutableRawPointer(buffer.baseAddress!))
            writeTarget(into: &head)
            return targetCount
        }
    }

    /// The path (`/` when empty) and the query (empty when there is none).
    var target: (path: Substring, query: Substring) {
        let utf8 = string.utf8
        func slice(_ range: Range<Int>) -> Substring {
            Substring(utf8[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)])
        }
        return (path.isEmpty ? "/" : slice(path), query.map(slice) ?? "")
    }

    /// The byte ranges of one URL string, or nil when it is not a plain http(s) URL.
    private struct Scan {
        var secure = false
        var host = 0..<0
        var port: Int?
        var path = 0..<0
        var query: Range<Int>?

        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            // http:// or https://, any case.
            var index = 0
            func lower(_ at: Int) -> UInt8 { at < bytes.count ? bytes[at] | 0x20 : 0 }
            guard lower(0) == UInt8(ascii: "h"), lower(1) == UInt8(ascii: "t"), lower(2) == UInt8(ascii: "t"), lower(3) == UInt8(ascii: "p") else { return nil }
            index = 4
            if lower(index) == UInt8(ascii: "s") {
                secure = true
                index += 1
            }
            guard index + 3 <= bytes.count, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
                  bytes[index + 2] == UInt8(ascii: "/") else { return nil }
            index += 3
            let hostStart = index
            var colon: Int?
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
                // User info, IP literals, percent-encoding and non-ASCII hosts are left to Foundation.
                guard byte > 32, byte < 128, byte != UInt8(ascii: "@"), byte != UInt8(ascii: "["), byte != UInt8(ascii: "%") else { return nil }
                if byte == UInt8(ascii: ":") {
                    guard colon == nil else { return nil }
                    colon = index
                }
                index += 1
            }
            let hostEnd = colon ?? index
            guard hostEnd > hostStart else { return nil }
            host = hostStart..<hostEnd
            if let colon {
                let digits = colon + 1..<index
                guard !digits.isEmpty, digits.count <= 5 else { return nil }
                var value = 0
                for at in digits {
                    let digit = bytes[at] &- 48
                    guard digit <= 9 else { return nil }
                    value = value * 10 + Int(digit)
                }
                guard value <= 65535 else { return nil }
                port = value
            }
            let pathStart = index
            var end = bytes.count
            var mark: Int?
            while index < bytes.count {
                let byte = bytes[index]
                guard byte > 32, byte < 128 else { return nil }
                if byte == UInt8(ascii: "#") {
                    end = index
                    break
                }
                if byte == UInt8(ascii: "?"), mark == nil { mark = index }
                index += 1
            }
            if let mark {
                path = pathStart..<mark
                query = mark + 1..<end
            } else {
                path = pathStart..<end
            }
        }
    }
}

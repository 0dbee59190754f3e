// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Streams

/// `server.address` and `server.port` of a CLIENT span (OpenTelemetry's HTTP client names) for
/// the URL it requests: read in the one pass `URLParts` makes over the URL's string, where
/// Foundation's `host` and `port` parse the URL again per call; Foundation's answers for a URL
/// that pass does not take (user info, IP literals).
public enum ServerAddress {
    /// The host and the port (the scheme's default without one); nil without a host.
    public static func of(_ url: URL) -> (host: String, port: Int)? {
        if let parts = URLParts(url) { return (parts.host, parts.port ?? (parts.secure ? 443 : 80)) }
        guard let host = url.host else { return nil }
        return (host, url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80))
    }

    /// `ServerAddress.of` for the few origins a client calls, remembered: a URL that begins with
    /// the `scheme://authority` of one answered before, followed by its path, query or fragment
    /// or nothing, has that answer, read by comparing the bytes of that beginning. A `/users`
    /// request's 31 exchanges go to two origins, and `of` scanned each whole URL and made its
    /// host a new string (about 1.1 k instructions an exchange: Benchmarks/README.md).
    /// `of` is its slow twin; the tests hold the two to the same answers.
    // @unchecked: `origins` is only touched between `lock.lock()` and `lock.unlock()` (`withOrigins`).
    public final class Memo: @unchecked Sendable {
        private struct Origin {
            /// `scheme://authority`, as the URLs spell it.
            let prefix: [UInt8]
            let host: String
            let port: Int
            /// The attributes its spans share, by the caller's key and variant (`shared(for:key:variant:make:)`).
            var shared: [(key: String, variant: Int, attributes: SharedSpanAttributes)] = []
        }

        /// Inline, not a `Locked`'s mutex: its few comparisons never call out, and a CLIENT span's
        /// end takes it once (the mutex's lock and unlock cost about 110 instructions).
        private let lock = SpinLock()
        @exclusivity(unchecked) private var origins: [Origin] = []
        private let capacity: Int

        private func withOrigins<Result>(_ body: (inout [Origin]) -> Result) -> Result {
            lock.lock()
            defer { lock.unlock() }
            return body(&origins)
        }

        /// Remembers at most `capacity` origins (the latest ones).
        public init(capacity: Int = 4) {
            self.capacity = capacity
        }

        /// What `ServerAddress.of(url)` answers.
        public func of(_ url: URL) -> (host: String, port: Int)? {
            var string = url.absoluteString
            let known = string.withUTF8 { bytes in
                withOrigins { origins -> (host: String, port: Int)? in
                    for index in origins.indices where Self.begins(bytes, with: origins[index].prefix) {
                        return (origins[index].host, origins[index].port)
                    }
                    return nil
                }
            }
            if let known { return known }
            guard let answer = ServerAddress.of(url) else { return nil }
            // Only an origin `URLParts` reads is remembered: then `of` answered from its bytes.
            if let length = URLParts.originLength(string) {
                let prefix = string.withUTF8 { Array($0[..<length]) }
                withOrigins { origins in
                    if origins.count == capacity { origins.removeFirst() }
                    origins.append(Origin(prefix: prefix, host: answer.host, port: answer.port))
                }
            }
            return answer
        }

        /// The attributes that the spans of `url`'s origin made under `key` and `variant` share
        /// (a CLIENT span's stage and status), made by `make` of the origin's host and port once
        /// (`ServerAddress.of`'s answer), then kept with the origin (at most `variantsPerOrigin`
        /// of them; any more are made per call); nil when `of(url)` is. `absoluteString` is
        /// `url`'s, read by the caller already (a CLIENT span's `url.full`): Foundation makes it
        /// anew per read (about 70 instructions).
        public func shared(
            for url: URL, absoluteString: String, key: String, variant: Int = 0, make: (_ host: String, _ port: Int) -> SharedSpanAttributes
        ) -> SharedSpanAttributes? {
            // The string's bytes read where they lie: `withUTF8` wants a `var`, and the copy
            // retained and released the string (`shared` 225 -> 173 instructions a CLIENT span).
            let known = absoluteString.utf8.withContiguousStorageIfAvailable { bytes in
                withOrigins { origins -> SharedSpanAttributes? in
                    guard let index = origins.indices.first(where: { Self.begins(bytes, with: origins[$0].prefix) }) else { return nil }
                    return origins[index].shared.first { $0.variant == variant && $0.key == key }?.attributes
                }
            }
            if case .some(.some(let shared)) = known { return shared }
            var string = absoluteString
            guard let (host, port) = of(url) else { return nil }
            let made = make(host, port)
            string.withUTF8 { bytes in
                withOrigins { origins in
                    guard let index = origins.indices.first(where: { Self.begins(bytes, with: origins[$0].prefix) }),
                        origins[index].shared.count < Self.variantsPerOrigin,
                        !origins[index].shared.contains(where: { $0.variant == variant && $0.key == key })
                    else { return }
                    origins[index].shared.append((key, variant, made))
                }
            }
            return made
        }

        /// Shared attribute sets kept per origin: a few stages by a few statuses, with room for an
        /// upstream that answers with many different statuses without the memo growing for each.
        static let variantsPerOrigin = 32

        /// Whether `bytes` are `prefix` and then nothing or `/`, `?` or `#`.
        private static func begins(_ bytes: UnsafeBufferPointer<UInt8>, with prefix: [UInt8]) -> Bool {
            prefix.withUnsafeBufferPointer { prefix in
                guard bytes.count >= prefix.count, let base = bytes.baseAddress, let start = prefix.baseAddress,
                    memcmp(base, start, prefix.count) == 0
                else { return false }
                guard bytes.count > prefix.count else { return true }
                let next = bytes[prefix.count]
                return next == UInt8(ascii: "/") || next == UInt8(ascii: "?") || next == UInt8(ascii: "#")
            }
        }
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import COpenSSL

/// OpenSSL's message digests, the one way every module calls them (avatar and cache-key SHA-256,
/// Redis script names by SHA-1, HS256 tokens through `HMAC`): each algorithm fetched once, each
/// context kept by the calling thread and reused (`ThreadDigestContexts`).
package struct MessageDigest: Sendable, Equatable {
    /// The algorithm's slot among the fetched algorithms and a thread's digest contexts.
    let index: Int
    /// The digest's length in bytes.
    package let byteCount: Int

    package static let sha1 = MessageDigest(index: 0, byteCount: Int(SHA_DIGEST_LENGTH))
    package static let sha256 = MessageDigest(index: 1, byteCount: Int(SHA256_DIGEST_LENGTH))
    /// OpenSSL's names, by `index`.
    static let names = ["SHA1", "SHA256"]

    /// The digest of `bytes`, as lower-case hex.
    package func hex(_ bytes: [UInt8]) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: byteCount) { digest in
            bytes.withUnsafeBufferPointer { self.digest($0, into: digest) }
            // Two table lookups a byte into one buffer: `String(byte, radix: 16)` and `joined()`
            // made 32 strings, more than the hashing; the table is a static string's bytes, not an
            // array in a `static let` (reading it from a global retains it) (the figure: Benchmarks/README.md).
            let hexDigits = Self.hexDigits.utf8Start
            return String(unsafeUninitializedCapacity: digest.count * 2) { text in
                for index in 0..<digest.count {
                    text[2 * index] = hexDigits[Int(digest[index] >> 4)]
                    text[2 * index + 1] = hexDigits[Int(digest[index] & 0x0F)]
                }
                return digest.count * 2
            }
        }
    }

    /// The digest of `input` into `digest` (`byteCount` bytes).
    func digest(_ input: UnsafeBufferPointer<UInt8>, into digest: UnsafeMutableBufferPointer<UInt8>) {
        if let algorithm = index == Self.sha1.index ? Self.fetchedSHA1 : Self.fetchedSHA256,
           let context = ThreadDigestContexts.contextForDigest(index),
           EVP_DigestInit_ex2(context, algorithm, nil) == 1 {
            _ = EVP_DigestUpdate(context, input.baseAddress, input.count)
            _ = EVP_DigestFinal_ex(context, digest.baseAddress, nil)
        } else if index == Self.sha1.index {
            _ = SHA1(input.baseAddress, input.count, digest.baseAddress)
        } else {
            _ = SHA256(input.baseAddress, input.count, digest.baseAddress)
        }
    }

    /// The algorithm for OpenSSL's one-shot functions (`HMAC()`), the reference the reused contexts agree with.
    var legacyAlgorithm: OpaquePointer? { index == Self.sha1.index ? EVP_sha1() : EVP_sha256() }

    /// OpenSSL 3's algorithms, fetched once (nil if no provider has one: then the one-shot
    /// `SHA1()`/`SHA256()`). The one-shot functions fetch it again on every call (a provider query
    /// under a lock, name comparisons), most of a small avatar's digest (the figure:
    /// Benchmarks/README.md). Two pointers, not an array: reading an array from a global retains
    /// it.
    // nonisolated(unsafe): an `EVP_MD` is immutable once fetched, and OpenSSL lets any thread use it.
    private nonisolated(unsafe) static let fetchedSHA1 = fetch(names[sha1.index])
    private nonisolated(unsafe) static let fetchedSHA256 = fetch(names[sha256.index])

    private static func fetch(_ name: String) -> OpaquePointer? {
        OpenSSLSetup.ensure()
        return EVP_MD_fetch(nil, name, nil)
    }

    private static let hexDigits: StaticString = "0123456789abcdef"
}

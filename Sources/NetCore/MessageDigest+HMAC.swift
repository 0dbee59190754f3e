// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import COpenSSL
import StreamServiceConcurrency

extension MessageDigest {
    /// An HMAC under one fixed key, keyed once per thread: OpenSSL's one-shot `HMAC()` fetches
    /// the MAC from the provider, builds a context and hashes the padded key on every call, which
    /// made a token's signature check the larger part of a new subscriber's connect
    /// (Benchmarks/README.md, issue 28). Here the calling thread's keyed context is reset
    /// (`EVP_MAC_init` without a key keeps the key's inner and outer states) and reused, as
    /// `MessageDigest`'s contexts are (`ThreadDigestContexts`).
    ///
    /// `oneShot` is the plain twin (OpenSSL's `HMAC()`), which the tests check `mac` against.
    package final class HMAC: Sendable {
        package let digest: MessageDigest
        private let key: [UInt8]
        /// Names this key among a thread's keyed contexts. Never reused (an object's address
        /// may be): a context keyed with another secret must never be found for this one.
        let id: UInt64

        private static let lastID = Locked<UInt64>(0)

        /// nil when OpenSSL cannot give an HMAC context for `digest` (a broken installation).
        package init?(key: [UInt8], digest: MessageDigest = .sha256) {
            self.key = key
            self.digest = digest
            id = Self.lastID.withLock { last in
                last += 1
                return last
            }
            // Keyed once here, so a key OpenSSL refuses is refused at start, not per call.
            guard let context = makeContext() else { return nil }
            EVP_MAC_CTX_free(context)
        }

        /// The MAC's length in bytes.
        package var byteCount: Int { digest.byteCount }

        /// The MAC of `message` into `out` (`byteCount` bytes); false if OpenSSL failed.
        package func mac(_ message: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Bool {
            guard out.count >= byteCount, let context = ThreadDigestContexts.contextForMAC(self) else { return false }
            var length = 0
            let done = EVP_MAC_init(context, nil, 0, nil) == 1
                && EVP_MAC_update(context, message.baseAddress, message.count) == 1
                && EVP_MAC_final(context, out.baseAddress, &length, out.count) == 1
                && length == byteCount
            if !done { ERR_clear_error() }
            return done
        }

        /// The same MAC by OpenSSL's one-shot `HMAC()`: the reference `mac` agrees with.
        package func oneShot(_ message: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
            var out = [UInt8](repeating: 0, count: byteCount)
            var length: UInt32 = 0
            let computed = key.withUnsafeBytes { key in
                COpenSSL.HMAC(digest.legacyAlgorithm, key.baseAddress, Int32(key.count), message.baseAddress, message.count, &out, &length) != nil
            }
            return computed && length == UInt32(byteCount) ? out : nil
        }

        /// A new context keyed with this key; nil (OpenSSL's error cleared) if OpenSSL failed.
        func makeContext() -> OpaquePointer? {
            OpenSSLSetup.ensure()
            guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { return nil }
            defer { EVP_MAC_free(mac) }
            guard let context = EVP_MAC_CTX_new(mac) else { return nil }
            var name = Array(MessageDigest.names[digest.index].utf8CString)
            let keyed = name.withUnsafeMutableBufferPointer { name in
                var params = [OSSL_PARAM_construct_utf8_string("digest", name.baseAddress, 0), OSSL_PARAM_construct_end()]
                return key.withUnsafeBufferPointer { EVP_MAC_init(context, $0.baseAddress, $0.count, &params) } == 1
            }
            guard keyed else {
                EVP_MAC_CTX_free(context)
                ERR_clear_error()
                return nil
            }
            return context
        }
    }
}

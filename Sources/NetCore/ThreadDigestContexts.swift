// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import COpenSSL

/// The calling thread's OpenSSL contexts for `MessageDigest` and its `HMAC`, made on first use
/// and freed when the thread ends: one per digest algorithm, and keyed MAC contexts for the
/// keys the thread used last. Re-initialised for each digest, a context keeps its state's
/// memory: a digest context made and freed per digest (`EVP_Digest`) cost mallocs every time
/// (the figure: Benchmarks/README.md).
///
/// Per thread rather than a pool under a lock (which `KeyedHMAC` had): both users are per
/// request on every loop — SHA-256 for each of `/users`' avatars, the HMAC for each request's
/// token (verified every time, none remembered) — and a pool costs each of them two lock
/// round trips on a lock the loops share; the thread's contexts cost a `pthread_getspecific`.
/// Only the owning thread touches them, so they need no lock.
final class ThreadDigestContexts {
    // @exclusivity(unchecked): only the owning thread touches them, one call at a time, so the
    // dynamic checks (a thread-local access set per read) could never fire.
    /// By `MessageDigest.index`.
    @exclusivity(unchecked) private var digests: [OpaquePointer?] = MessageDigest.names.map { _ in nil }
    /// Keyed contexts by `HMAC.id`, the most recently used first.
    @exclusivity(unchecked) private var macs: [(key: UInt64, context: OpaquePointer)] = []
    /// Keyed contexts a thread keeps at most: the server has one key; a context for a key no
    /// longer used is freed when this many newer ones pushed it out, or with the thread.
    static let macLimit = 4

    deinit {
        for context in digests { EVP_MD_CTX_free(context) }
        for mac in macs { EVP_MAC_CTX_free(mac.context) }
    }

    /// The calling thread's context for the digest at `index` (nil if OpenSSL or the thread's slot failed).
    static func contextForDigest(_ index: Int) -> OpaquePointer? {
        current()?._withUnsafeGuaranteedRef { $0.digestContext(index) }
    }

    /// The calling thread's context keyed with `hmac`'s key (nil if OpenSSL or the thread's slot failed).
    static func contextForMAC(_ hmac: MessageDigest.HMAC) -> OpaquePointer? {
        current()?._withUnsafeGuaranteedRef { $0.macContext(for: hmac) }
    }

    /// The calling thread's contexts, made on its first call; nil only if its thread-specific
    /// slot cannot be set. Lent (`_withUnsafeGuaranteedRef`), not taken: the slot holds them,
    /// so a use costs no retain and release.
    private static func current() -> Unmanaged<ThreadDigestContexts>? {
        if let contexts = pthread_getspecific(slot) { return .fromOpaque(contexts) }
        let retained = Unmanaged.passRetained(ThreadDigestContexts())
        guard pthread_setspecific(slot, retained.toOpaque()) == 0 else {
            retained.release()
            return nil
        }
        return retained
    }

    private func digestContext(_ index: Int) -> OpaquePointer? {
        if let context = digests[index] { return context }
        digests[index] = EVP_MD_CTX_new()
        return digests[index]
    }

    private func macContext(for hmac: MessageDigest.HMAC) -> OpaquePointer? {
        if let found = macs.firstIndex(where: { $0.key == hmac.id }) {
            if found != 0 { macs.insert(macs.remove(at: found), at: 0) }
            return macs[0].context
        }
        guard let context = hmac.makeContext() else { return nil }
        macs.insert((hmac.id, context), at: 0)
        if macs.count > Self.macLimit { EVP_MAC_CTX_free(macs.removeLast().context) }
        return context
    }

    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { contexts in
            guard let contexts = contexts as UnsafeMutableRawPointer? else { return }
            Unmanaged<ThreadDigestContexts>.fromOpaque(contexts).release()
        }
        return key
    }()
}

import COpenSSL
import StreamServiceConcurrency

/// HMAC-SHA256 under one fixed key, keyed once: OpenSSL's one-shot `HMAC()` fetches the MAC
/// from the provider, builds a context and hashes the padded key on every call, which made a
/// token's signature check the larger part of a new subscriber's connect (Benchmarks/README.md,
/// issue 28). Here a keyed context is reset (`EVP_MAC_init` without a key keeps the key's
/// inner and outer states) and reused; contexts wait in a pool, one per concurrent verifier.
///
/// `oneShot` is the plain twin (OpenSSL's `HMAC()`), which `KeyedHMACTests` checks it against.
// @unchecked: `template` is only read (duplicated) after init; the pool is behind its lock.
final class KeyedHMAC: @unchecked Sendable {
    static let outputBytes = 32
    private let key: [UInt8]
    private let template: OpaquePointer
    private let idle = Locked<[OpaquePointer]>([])
    /// Contexts kept for reuse at most: one per event loop suffices; a burst beyond it frees the extras.
    static let poolLimit = 16

    /// nil when OpenSSL cannot give an HMAC-SHA256 context (a broken installation).
    init?(key: [UInt8]) {
        guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { return nil }
        defer { EVP_MAC_free(mac) }
        guard let context = EVP_MAC_CTX_new(mac) else { return nil }
        var digest = Array("SHA256".utf8CString)
        let keyed = digest.withUnsafeMutableBufferPointer { name in
            var params = [OSSL_PARAM_construct_utf8_string("digest", name.baseAddress, 0), OSSL_PARAM_construct_end()]
            return key.withUnsafeBufferPointer { EVP_MAC_init(context, $0.baseAddress, $0.count, &params) } == 1
        }
        guard keyed else {
            EVP_MAC_CTX_free(context)
            ERR_clear_error()
            return nil
        }
        self.key = key
        template = context
    }

    deinit {
        EVP_MAC_CTX_free(template)
        for context in idle.withLock({ $0 }) { EVP_MAC_CTX_free(context) }
    }

    /// The MAC of `message` into `out` (32 bytes); false if OpenSSL failed.
    func mac(_ message: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        guard out.count >= Self.outputBytes,
              let context = idle.withLock({ $0.popLast() }) ?? EVP_MAC_CTX_dup(template) else { return false }
        var length = 0
        let done = EVP_MAC_init(context, nil, 0, nil) == 1
            && EVP_MAC_update(context, message.baseAddress, message.count) == 1
            && EVP_MAC_final(context, out.baseAddress, &length, out.count) == 1
            && length == Self.outputBytes
        let kept = done && idle.withLock { idle in
            guard idle.count < Self.poolLimit else { return false }
            idle.append(context)
            return true
        }
        if !kept { EVP_MAC_CTX_free(context) }
        if !done { ERR_clear_error() }
        return done
    }

    /// The same MAC by OpenSSL's one-shot `HMAC()`: the reference `mac` agrees with.
    func oneShot(_ message: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: Self.outputBytes)
        var length: UInt32 = 0
        let computed = key.withUnsafeBytes { key in
            HMAC(EVP_sha256(), key.baseAddress, Int32(key.count), message.baseAddress, message.count, &out, &length) != nil
        }
        return computed && length == UInt32(Self.outputBytes) ? out : nil
    }
}

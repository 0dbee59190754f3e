#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import COpenSSL
import NetCore

/// SHA-256 through OpenSSL, as lower-case hex.
public enum SHA256Digest {
    public static func hex(_ bytes: [UInt8]) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(SHA256_DIGEST_LENGTH)) { digest in
            bytes.withUnsafeBufferPointer { input in
                if let algorithm, let context = threadContext, EVP_DigestInit_ex2(context, algorithm, nil) == 1 {
                    _ = EVP_DigestUpdate(context, input.baseAddress, input.count)
                    _ = EVP_DigestFinal_ex(context, digest.baseAddress, nil)
                } else {
                    _ = SHA256(input.baseAddress, input.count, digest.baseAddress)
                }
            }
            // Two table lookups a byte into one buffer: `String(byte, radix: 16)` and `joined()`
            // made 32 strings and cost about 26,000 instructions per digest, twice the hashing;
            // the table is a static string's bytes (from an array in a `static let`, 600
            // instructions a digest, now 430).
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

    /// OpenSSL 3's SHA-256, fetched once (nil if no provider has it: then the one-shot `SHA256()`).
    /// The one-shot function fetches it again on every call (a provider query under a lock, name
    /// comparisons), which was most of a 165-byte avatar's 9,200 instructions (callgrind).
    // nonisolated(unsafe): an `EVP_MD` is immutable once fetched, and OpenSSL lets any thread use it.
    private nonisolated(unsafe) static let algorithm: OpaquePointer? = {
        OpenSSLSetup.ensure()
        return EVP_MD_fetch(nil, "SHA256", nil)
    }()

    /// The calling thread's digest context, made on its first digest and freed when the thread
    /// ends. Re-initialised for each digest, it keeps its SHA-256 state's memory: a context made
    /// and freed per digest (`EVP_Digest`) cost four mallocs and about 1,000 instructions an
    /// avatar of `/users` (callgrind).
    private static var threadContext: OpaquePointer? {
        if let context = pthread_getspecific(contextKey) { return OpaquePointer(context) }
        guard let context = EVP_MD_CTX_new() else { return nil }
        pthread_setspecific(contextKey, UnsafeRawPointer(context))
        return context
    }

    private static let contextKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { context in EVP_MD_CTX_free(OpaquePointer(context)) }
        return key
    }()

    private static let hexDigits: StaticString = "0123456789abcdef"
}

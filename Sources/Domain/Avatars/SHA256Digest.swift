import COpenSSL

/// SHA-256 through OpenSSL's one-shot function, as lower-case hex.
public enum SHA256Digest {
    public static func hex(_ bytes: [UInt8]) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(SHA256_DIGEST_LENGTH)) { digest in
            bytes.withUnsafeBufferPointer { input in
                _ = SHA256(input.baseAddress, input.count, digest.baseAddress)
            }
            // Two table lookups a byte into one buffer: `String(byte, radix: 16)` and `joined()`
            // made 32 strings and cost about 26,000 instructions per digest, twice the hashing.
            return String(unsafeUninitializedCapacity: digest.count * 2) { text in
                for (index, byte) in digest.enumerated() {
                    text[2 * index] = hexDigits[Int(byte >> 4)]
                    text[2 * index + 1] = hexDigits[Int(byte & 0x0F)]
                }
                return digest.count * 2
            }
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}

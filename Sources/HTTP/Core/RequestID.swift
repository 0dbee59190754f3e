import Synchronization

/// Request ids: the client's `X-Request-ID` when it is a sane token, else a process-unique counter.
enum RequestID {
    private static let counter = Atomic<UInt64>(0)

    /// - Parameter prefix: starts a generated id; replicas sharing one feed use their own, so ids stay unique across them.
    static func next(incoming: String?, prefix: String = "req-") -> String {
        if let incoming, !incoming.isEmpty, incoming.utf8.count <= 128,
           incoming.utf8.allSatisfy({ HTTPSyntax.isTokenCharacter($0) }) {
            return incoming
        }
        let value = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return hexadecimal(value, after: prefix)
    }

    /// `prefix` then `value` in lower-case hexadecimal, written into the new string's storage in
    /// one pass (`prefix + String(value, radix: 16)` made two strings and joined them).
    static func hexadecimal(_ value: UInt64, after prefix: String) -> String {
        let digits = max(1, (UInt64.bitWidth - value.leadingZeroBitCount + 3) / 4)
        var prefix = prefix
        return prefix.withUTF8 { start in
            String(unsafeUninitializedCapacity: start.count + digits) { buffer in
                _ = buffer.initialize(from: start)
                var rest = value
                for index in stride(from: start.count + digits - 1, through: start.count, by: -1) {
                    let digit = UInt8(truncatingIfNeeded: rest & 0xF)
                    buffer[index] = digit < 10 ? 48 + digit : 87 + digit
                    rest >>= 4
                }
                return start.count + digits
            }
        }
    }
}

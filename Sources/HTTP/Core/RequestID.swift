import StreamServiceText
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
        ASCIIDigits.string(prefix, hexadecimal: value)
    }
}

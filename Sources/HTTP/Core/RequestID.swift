// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceText
import Synchronization

/// Request ids: the client's `X-Request-ID` when it is a sane token, else a process-unique counter.
///
/// The id reaches the log and every `/events` subscriber, so a client must not be able to pass
/// its own off as the service's: an id in the family of the generated ones (`req-…`, whatever
/// the case) is replaced like any other unusable id, and every `req-` id anywhere is the service's.
enum RequestID {
    private static let counter = Atomic<UInt64>(0)

    /// - Parameter prefix: starts a generated id; replicas sharing one feed use their own, so ids stay unique across them.
    static func next(incoming: String?, prefix: String = "req-") -> String {
        if let incoming, !incoming.isEmpty, incoming.utf8.count <= 128,
           incoming.utf8.allSatisfy({ HTTPSyntax.isTokenCharacter($0) }), !isInFamily(incoming, of: prefix) {
            return incoming
        }
        let value = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return hexadecimal(value, after: prefix)
    }

    /// Whether `id` starts, ignoring ASCII case, with the family of ids made after `prefix`: its
    /// first segment up to and including the first `-` (`req-` of `req-replica-0-`), so one
    /// replica's client cannot imitate another replica's ids either.
    static func isInFamily(_ id: String, of prefix: String) -> Bool {
        let family = prefix.utf8.firstIndex(of: UInt8(ascii: "-")).map { prefix.utf8[...$0] } ?? prefix.utf8[...]
        guard !family.isEmpty, id.utf8.count >= family.count else { return false }
        // `| 0x20` folds ASCII letters to lower case; both sides are folded, so only letters may differ in case.
        return zip(id.utf8, family).allSatisfy { $0 | 0x20 == $1 | 0x20 }
    }

    /// `prefix` then `value` in lower-case hexadecimal, written into the new string's storage in
    /// one pass (`prefix + String(value, radix: 16)` made two strings and joined them).
    static func hexadecimal(_ value: UInt64, after prefix: String) -> String {
        ASCIIDigits.string(prefix, hexadecimal: value)
    }
}

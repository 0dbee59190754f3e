import StreamServiceConcurrency

/// Tokens whose signature verified, with their claims: a client sends the same token request
/// after request, and decoding its JSON twice and checking its signature cost about 100,000
/// instructions each time (callgrind, `/users` with a token); the times, audience and issuer are
/// checked again on every use. Emptied when full (a flood of distinct valid tokens can only come
/// from the key's holder).
final class VerifiedTokens: Sendable {
    private let table: Locked<[Key: JWTClaims]>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        table = Locked([:])
    }

    func claims(of token: Substring) -> JWTClaims? {
        table.withLock { $0[Key(token)] }
    }

    func remember(_ claims: JWTClaims, of token: Substring) {
        // Kept as the slice of the field it came in, not copied (200 bytes a token), unless that
        // field holds much more than the token (a `Cookie` field of many cookies).
        let token = token.base.utf8.count <= token.utf8.count + Self.keptSlack ? token : Substring(String(token))
        table.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            // Reserved at the first token, not before (a service without tokens keeps nothing): growing
            // to 10,000 entries rehashed the table 13 times on the way.
            if table.isEmpty, table.capacity < capacity { table.reserveCapacity(capacity) }
            table[Key(token)] = claims
        }
    }

    /// Bytes of the field besides the token that a remembered token may keep alive (`Bearer `).
    static let keptSlack = 64

    /// A token as the table's key: equal by all its bytes, hashed by its last `hashedBytes`.
    /// Only verified tokens are stored, and their last bytes are signature bytes the client cannot
    /// choose without the key, so they spread as well as the whole token would; hashing all of a
    /// 200-byte token cost about 2,000 instructions per look-up (callgrind).
    struct Key: Hashable {
        static let hashedBytes = 16
        let token: Substring

        init(_ token: Substring) { self.token = token }

        func hash(into hasher: inout Hasher) {
            var token = token
            token.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: $0.suffix(Self.hashedBytes)))) }
        }

        static func == (a: Key, b: Key) -> Bool { a.token == b.token }
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension ConnectionPool {
    /// Scheme (secure or not), host and port: what the pool's connections are shared by.
    ///
    /// Its hash is worked out once, from the host's bytes: the pool looks an origin up two or three
    /// times per exchange, and `Hasher` over the host `String` walks its characters on every
    /// lookup: here a lookup hashes two integers.
    struct Origin: Hashable, Sendable {
        let secure: Bool
        let host: String
        let port: Int
        private let hashCode: Int

        init(secure: Bool, host: String, port: Int) {
            self.secure = secure
            self.host = host
            self.port = port
            // FNV-1a; `Hasher` still seeds and finishes it in `hash(into:)`.
            // Over the host's bytes in place: through `host.utf8` each byte costs an index step.
            var host = host
            var code = host.withUTF8 { bytes in
                var code: UInt64 = 0xCBF2_9CE4_8422_2325
                for byte in bytes { code = (code ^ UInt64(byte)) &* 0x100_0000_01B3 }
                return code
            }
            code = (code ^ UInt64(UInt(bitPattern: port))) &* 0x100_0000_01B3
            hashCode = Int(truncatingIfNeeded: secure ? ~code : code)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hashCode)
        }

        static func == (lhs: Origin, rhs: Origin) -> Bool {
            lhs.hashCode == rhs.hashCode && lhs.port == rhs.port && lhs.secure == rhs.secure && lhs.host == rhs.host
        }

        /// Whether this is the origin of these parts (a request's, read once for a lookup): compared
        /// without an `Origin` made for them, whose host's hash cost ~136 instructions an exchange.
        /// A host compares with this one's as two words when it is the same small string or storage.
        func matches(_ parts: Parts) -> Bool {
            port == parts.port && secure == parts.secure && host == parts.host
        }

        /// A request's scheme, host and port, read from its URL's parts once (an HTTP/1.1 exchange
        /// keeps them): what the pool and the fields cache find its origin by (`matches`).
        struct Parts: Sendable {
            let secure: Bool
            let host: String
            let port: Int

            init(_ request: HTTPClientRequest) {
                (secure, host, port) = request.origin
            }

            /// The origin, made for a new entry (or a connection's watch).
            var origin: Origin { Origin(secure: secure, host: host, port: port) }
        }
    }
}

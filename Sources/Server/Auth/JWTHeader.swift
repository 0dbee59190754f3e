// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceJSON

/// The JOSE header fields a verifier reads (RFC 7515 §4.1): the algorithm, and `crit`, which
/// names extensions that must be understood.
struct JWTHeader: Sendable, Equatable, Decodable {
    var alg: String?
    var crit: [String]?

    init(alg: String? = nil, crit: [String]? = nil) {
        self.alg = alg
        self.crit = crit
    }

    /// The header read straight from its JSON bytes; nil for anything but a plain object of
    /// string members (escapes allowed), `crit` an array of strings, `null` for either, other
    /// members skipped — and for a repeated member. The caller then decodes with `JSONDecoder`,
    /// the plain twin (`JWTJSONReadingTests` holds them equal), whose answer stands.
    static func read(_ json: UnsafeBufferPointer<UInt8>) -> JWTHeader? {
        var reader = JSONReader(bytes: json)
        var header = JWTHeader()
        let read = reader.tokenObject(.header) { reader, name in
            if name == .alg {
                guard let value = reader.string() else { return false }
                header.alg = value
            } else {
                guard let value = reader.strings() else { return false }
                header.crit = value
            }
            return true
        }
        guard read, reader.atEnd() else { return nil }
        return header
    }
}

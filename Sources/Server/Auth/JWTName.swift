// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The JSON member names a token's header and claims are read by.
enum JWTName: UInt8 {
    case alg, crit, sub, iss, aud, exp, nbf, streamservice, subscribe, metrics

    /// The object a name is a member of: the header, the claims, or the `streamservice` claim.
    enum Object { case header, claims, serviceClaim }

    var object: Object {
        switch self {
        case .alg, .crit: .header
        case .subscribe, .metrics: .serviceClaim
        case .sub, .iss, .aud, .exp, .nbf, .streamservice: .claims
        }
    }

    /// The names a reader has met, one bit each: a repeated member is left to `JSONDecoder`.
    struct Seen {
        private var bits: UInt16 = 0

        /// Records `name`; false when it was met before.
        mutating func insert(_ name: JWTName) -> Bool {
            let bit: UInt16 = 1 << name.rawValue
            defer { bits |= bit }
            return bits & bit == 0
        }
    }

    /// The name a key's raw bytes (unescaped) spell, or nil for any other member: the length
    /// picks the names to compare, as `GitHubUserReader` matches its fields.
    init?(_ key: UnsafeBufferPointer<UInt8>) {
        func spelled(_ name: StaticString) -> Bool { memcmp(name.utf8Start, key.baseAddress!, key.count) == 0 }
        switch key.count {
        case 3:
            if spelled("alg") { self = .alg } else if spelled("sub") { self = .sub } else if spelled("iss") { self = .iss }
            else if spelled("aud") { self = .aud } else if spelled("exp") { self = .exp } else if spelled("nbf") { self = .nbf }
            else { return nil }
        case 4: guard spelled("crit") else { return nil }; self = .crit
        case 7: guard spelled("metrics") else { return nil }; self = .metrics
        case 9: guard spelled("subscribe") else { return nil }; self = .subscribe
        case 13: guard spelled("streamservice") else { return nil }; self = .streamservice
        default: return nil
        }
    }
}

extension JSONReader {
    /// A token's JSON object (the header, the claims, the `streamservice` claim): each member
    /// named for `object` goes to `member` once (`null` is a member without a value, as
    /// `decodeIfPresent` reads it), the others are skipped. false for anything else, a repeated
    /// member, or a value `member` refuses: the caller then leaves the document to `JSONDecoder`.
    mutating func tokenObject(_ object: JWTName.Object, _ member: (inout JSONReader, JWTName) -> Bool) -> Bool {
        var seen = JWTName.Seen()
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = key(), take(UInt8(ascii: ":")) else { return false }
            guard let name = JWTName(key), name.object == object else {
                guard skipValue(depth: 0) else { return false }
                continue
            }
            guard seen.insert(name) else { return false }
            if literal("null") { continue }
            guard member(&self, name) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }
}

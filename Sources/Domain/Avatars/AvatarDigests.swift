// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NetCore
import Synchronization

/// The SHA-256 (`AvatarMetadata.sha256`) of each user's avatar as last described, kept with the
/// image's bytes: a page of users shows the same avatars request after request, and an image
/// whose bytes equal the kept ones (compared in full, never assumed from its URL or its user) has
/// the kept digest. Hashing each avatar cost ~7,400 instructions under callgrind (which hides
/// SHA-NI from OpenSSL; the context set-up and hex alone are ~1,500), 30 a `/users` request; the
/// comparison costs about a tenth of that. `MessageDigest.sha256.hex` is the slow twin
/// (AvatarDigestsTests). Past `capacity` images or `maximumBytes` of them the memo starts over.
final class AvatarDigests: Sendable {
    private struct Kept {
        let bytes: [UInt8]
        let sha256: String
    }

    private struct State {
        var kept: [Int: Kept] = [:]
        /// The kept images' bytes in all.
        var bytes = 0
    }

    private let state = Mutex(State())
    let capacity: Int
    let maximumBytes: Int

    init(capacity: Int, maximumBytes: Int) {
        self.capacity = capacity
        self.maximumBytes = maximumBytes
    }

    /// `MessageDigest.sha256.hex(bytes)` of the avatar of the user with this `id`.
    func sha256(of bytes: [UInt8], user id: Int) -> String {
        if let kept = state.withLock({ $0.kept[id] }), Self.same(kept.bytes, bytes) { return kept.sha256 }
        let sha256 = MessageDigest.sha256.hex(bytes)
        guard bytes.count <= maximumBytes else { return sha256 }
        state.withLock { state in
            if state.kept.count >= capacity || state.bytes + bytes.count > maximumBytes {
                state.kept.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
            if let replaced = state.kept.updateValue(Kept(bytes: bytes, sha256: sha256), forKey: id) { state.bytes -= replaced.bytes.count }
            state.bytes += bytes.count
        }
        return sha256
    }

    /// The images kept now (tests).
    var count: Int { state.withLock { $0.kept.count } }

    /// Byte for byte, by `memcmp`: `Array`'s `==` compares a byte a step.
    private static func same(_ kept: [UInt8], _ bytes: [UInt8]) -> Bool {
        kept.count == bytes.count && kept.withUnsafeBytes { kept in
            bytes.withUnsafeBytes { bytes in bytes.isEmpty || memcmp(kept.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
        }
    }
}

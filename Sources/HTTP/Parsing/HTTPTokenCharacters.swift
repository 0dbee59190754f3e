// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// RFC 9110 §5.6.2's tchar (`!#$%&'*+-.^_|~`, digits and letters) as two 64-bit masks. In a file of
/// its own, with no dependency, so that the HPACK fuzz target (scripts/fuzz-http2), which compiles
/// the HPACK files and HTTP/2's field rules alone, builds it with them.
enum HTTPTokenCharacters {
    @inline(__always)
    static func contains(_ byte: UInt8) -> Bool {
        // One bit per ASCII byte (0-63, 64-127): a shift and a mask instead of a chain of ranges.
        byte < 64 ? (low >> byte) & 1 == 1 : byte < 128 && (high >> (byte - 64)) & 1 == 1
    }

    /// Bit n set for the tchar n (0-63): `!#$%&'*+-.` and the digits.
    private static let low: UInt64 = 0x03ff6cfa00000000
    /// Bit n set for the tchar 64 + n: the letters and `^_`|~`.
    private static let high: UInt64 = 0x57ffffffc7fffffe
}

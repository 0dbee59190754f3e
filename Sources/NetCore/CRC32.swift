// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import CCRC32
import CZlib

/// The gzip CRC-32 (RFC 1952), zlib's `crc32` continued over more bytes.
package enum CRC32 {
    /// `crc` continued over `bytes`: all but the last few bytes folded with carry-less multiplies
    /// (CCRC32) where the CPU has them, the rest by zlib. zlib 1.2's table-driven `crc32` took
    /// ~3.9 instructions a byte, ~103,000 for a `/users` request's 26 kB upstream page; folded, ~0.3.
    package static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard folds, bytes.count >= 64 else { return tabled(crc, bytes) }
        let bulk = bytes.count & ~15
        let folded = ~ccrc32_fold(~crc, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bulk)
        return tabled(folded, UnsafeRawBufferPointer(rebasing: bytes[bulk...]))
    }

    /// zlib's `crc32`: `update`'s slow twin (CRC32Tests), and its tail.
    package static func tabled(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(truncatingIfNeeded: crc32_z(uLong(crc), bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), z_size_t(bytes.count)))
    }

    /// Whether this CPU folds (PCLMULQDQ and SSE4.1).
    package static let folds = ccrc32_fold_available() != 0
}

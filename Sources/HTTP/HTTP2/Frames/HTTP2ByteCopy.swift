// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Bytes copied out into a new array. A static function of a concrete type, so that the array's
/// allocation is specialised for `UInt8`: as an initialiser in an `Array` extension it ran
/// unspecialised, through the runtime's generic metadata lookups (about 1,100 instructions a
/// call, the figure: Benchmarks/README.md).
enum HTTP2ByteCopy {
    /// A new array of `raw`'s bytes: made at its size, then one copy in. `Array(raw)` goes through
    /// the standard library's `_copyCollectionToContiguousArray`, about 260 instructions for a
    /// header block's layout or a small DATA payload (the HTTP/2 client copies one of each per
    /// upstream answer: Benchmarks/README.md). `Array(_:)` is its slow twin (HTTP2ByteCopyTests).
    static func array(_ raw: UnsafeRawBufferPointer) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: raw.count)
        guard let source = raw.baseAddress, raw.count > 0 else { return bytes }
        bytes.withUnsafeMutableBytes { $0.baseAddress.unsafelyUnwrapped.copyMemory(from: source, byteCount: raw.count) }
        return bytes
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import CZlib

/// gzip compression and gzip/zlib/raw-deflate decompression through zlib.
public enum Gzip {
    public enum Failure: Error, Sendable, Equatable {
        case zlib(Int32)
        case outputTooLarge
        case truncated
    }

    /// Compresses `bytes` into a gzip member (RFC 1952).
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) throws -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 + 16 selects the gzip wrapper instead of zlib's.
        var status = deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw Failure.zlib(status) }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        var input = bytes
        let produced: Int = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                status = deflate(&stream, Z_FINISH)
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        guard status == Z_STREAM_END else { throw Failure.zlib(status) }
        output.removeLast(output.count - produced)
        return output
    }

    /// Decompresses gzip or zlib data (detected from the header), falling back
    /// to raw deflate, which some servers send as `Content-Encoding: deflate`.
    /// Stops with `.outputTooLarge` past `maximumOutput` bytes (zip bombs).
    public static func decompress(_ bytes: [UInt8], maximumOutput: Int = 64 << 20) throws -> [UInt8] {
        try decompress(bytes, maximumOutput: maximumOutput, checking: .folded)
    }

    /// Who checks a gzip member's CRC-32 and length against its trailer.
    package enum Check: Sendable {
        /// This module, the CRC folded (`CRC32.update`) over the whole output once it is inflated:
        /// zlib's own check, table-driven, was 40 % of inflating a JSON page (~103,000 of
        /// ~260,000 instructions per `/users` request).
        case folded
        /// zlib, as it inflates: `folded`'s slow twin (GzipTests holds them to the same answers).
        case zlib
    }

    /// `decompress(_:maximumOutput:)` with a gzip member's trailer checked by `check`.
    package static func decompress(_ bytes: [UInt8], maximumOutput: Int = 64 << 20, checking check: Check) throws -> [UInt8] {
        do {
            return try inflate(bytes, windowBits: 15 + 32, maximumOutput: maximumOutput, check: check)
        } catch Failure.zlib(Z_DATA_ERROR) {
            return try inflate(bytes, windowBits: -15, maximumOutput: maximumOutput, check: .zlib)
        }
    }

    /// Whether `bytes` start a gzip member whose trailer `folded` checks: one without a header
    /// CRC (FHCRC), which zlib checks only while it checks the trailer too, and nobody sends.
    private static func checksTrailerItself(_ bytes: [UInt8], windowBits: Int32, check: Check) -> Bool {
        check == .folded && windowBits == 15 + 32 && bytes.count >= 4 && bytes[0] == 0x1F && bytes[1] == 0x8B && bytes[3] & 0x02 == 0
    }

    /// Whether the 8-byte trailer (CRC-32, then ISIZE, little-endian) ending at `end` states `output`.
    private static func trailer(of bytes: UnsafeBufferPointer<UInt8>, endingAt end: Int, states output: UnsafeRawBufferPointer) -> Bool {
        guard end >= 8 else { return false }
        func word(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        return word(end - 4) == UInt32(truncatingIfNeeded: output.count) && word(end - 8) == CRC32.update(0, output)
    }

    /// Inflates straight into the result's uninitialised capacity, doubling it when full: the
    /// 64 KiB chunk this replaced was zero-filled and copied out once per body, and was a large
    /// allocation that made glibc consolidate its bins; now no byte is zero-filled or copied twice.
    private static func inflate(_ bytes: [UInt8], windowBits: Int32, maximumOutput: Int, check: Check) throws -> [UInt8] {
        var stream = z_stream()
        var status = inflateInit2_(&stream, windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw Failure.zlib(status) }
        defer { inflateEnd(&stream) }
        // zlib still reads the trailer, without checking it: that is done below, where zlib
        // would have failed with Z_DATA_ERROR (`incorrect data check`, `incorrect length check`).
        let checksTrailer = checksTrailerItself(bytes, windowBits: windowBits, check: check)
        if checksTrailer { _ = inflateValidate(&stream, 0) }
        var output: [UInt8] = []
        var capacity = min(max(expectedSize(of: bytes), 64), maximumOutput + 1)
        var input = bytes
        try input.withUnsafeMutableBufferPointer { inBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            repeat {
                let kept = output
                var produced = 0
                output = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                    _ = kept.withUnsafeBufferPointer { buffer.initialize(fromContentsOf: $0) }
                    stream.next_out = buffer.baseAddress! + kept.count
                    stream.avail_out = uInt(capacity - kept.count)
                    // All input is here: Z_FINISH lets zlib skip its 32 KiB window when the
                    // output fits, which `expectedSize` makes the usual case.
                    status = CZlib.inflate(&stream, Z_FINISH)
                    count = capacity - Int(stream.avail_out)
                    produced = count - kept.count
                    if checksTrailer, status == Z_STREAM_END,
                       !trailer(of: UnsafeBufferPointer(inBuffer), endingAt: inBuffer.count - Int(stream.avail_in), states: UnsafeRawBufferPointer(start: buffer.baseAddress, count: count)) {
                        status = Z_DATA_ERROR
                    }
                }
                guard status == Z_OK || status == Z_STREAM_END || (status == Z_BUF_ERROR && produced > 0) else {
                    throw status == Z_BUF_ERROR ? Failure.truncated : Failure.zlib(status)
                }
                if output.count > maximumOutput { throw Failure.outputTooLarge }
                if status != Z_STREAM_END && produced == 0 && stream.avail_in == 0 { throw Failure.truncated }
                if output.count == capacity { capacity = min(capacity * 2, maximumOutput + 1) }
            } while status != Z_STREAM_END
        }
        return output
    }

    /// The output size to allocate first: a gzip member states its size (mod 2^32) in its
    /// last four bytes (RFC 1952 ISIZE), trusted only up to deflate's densest ratio (1032:1)
    /// so a forged trailer cannot make a small body allocate much; zlib and raw deflate state
    /// nothing, and JSON, the usual body here, inflates about 5-8×.
    package static func expectedSize(of bytes: [UInt8]) -> Int {
        guard bytes.count >= 18, bytes[0] == 0x1F, bytes[1] == 0x8B else { return bytes.count * 8 }
        let n = bytes.count
        let stated = Int(bytes[n - 4]) | Int(bytes[n - 3]) << 8 | Int(bytes[n - 2]) << 16 | Int(bytes[n - 1]) << 24
        return min(stated, n * 1032)
    }
}

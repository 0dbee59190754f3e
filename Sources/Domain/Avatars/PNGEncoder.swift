// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import CZlib

/// Encodes 8-bit RGB pixels as a PNG file: signature, IHDR, one zlib-compressed IDAT, IEND.
///
/// Deliberately minimal: no interlacing, no palette, filter type 0 on every row. That is
/// all an identicon needs, and every decoder accepts it.
public enum PNGEncoder {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public enum Failure: Error, Equatable {
        case pixelCountMismatch(expected: Int, got: Int)
        case compressionFailed(code: Int32)
    }

    /// - Parameter rgb: `width * height * 3` bytes, rows top to bottom.
    public static func encode(width: Int, height: Int, rgb: [UInt8]) throws -> [UInt8] {
        let rowBytes = width * 3
        guard rgb.count == rowBytes * height else {
            throw Failure.pixelCountMismatch(expected: rowBytes * height, got: rgb.count)
        }
        var scanlines = [UInt8]()
        scanlines.reserveCapacity((rowBytes + 1) * height)
        for row in 0..<height {
            scanlines.append(0)  // filter type: none
            scanlines.append(contentsOf: rgb[(row * rowBytes)..<((row + 1) * rowBytes)])
        }

        var header = [UInt8]()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [8, 2, 0, 0, 0])  // bit depth 8, colour type RGB, deflate, filter 0, no interlace

        var png = signature
        png.appendChunk(type: "IHDR", data: header)
        png.appendChunk(type: "IDAT", data: try zlibCompress(scanlines))
        png.appendChunk(type: "IEND", data: [])
        return png
    }

    static func zlibCompress(_ input: [UInt8]) throws -> [UInt8] {
        var capacity = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let code = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { source in
                compress2(out.baseAddress, &capacity, source.baseAddress, uLong(input.count), Z_BEST_COMPRESSION)
            }
        }
        guard code == Z_OK else { throw Failure.compressionFailed(code: code) }
        output.removeSubrange(Int(capacity)...)
        return output
    }

    static func crc(of bytes: [UInt8]) -> UInt32 {
        let value = bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        return UInt32(truncatingIfNeeded: value)
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        append(UInt8(truncatingIfNeeded: value >> 24))
        append(UInt8(truncatingIfNeeded: value >> 16))
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value))
    }

    /// Length, type, data, then the CRC-32 of type + data, as the PNG spec lays a chunk out.
    mutating func appendChunk(type: String, data: [UInt8]) {
        appendBigEndian(UInt32(data.count))
        let typeAndData = Array(type.utf8) + data
        append(contentsOf: typeAndData)
        appendBigEndian(PNGEncoder.crc(of: typeAndData))
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import CZlib
import XCTest
@testable import Domain
@testable import DemoUpstream

final class PNGEncoderTests: XCTestCase {
    func testIdenticonStartsWithThePNGSignature() {
        let png = Identicon(login: "ada1").png()
        XCTAssertEqual(Array(png.prefix(8)), PNGEncoder.signature)
    }

    func testEveryChunkCarriesAValidCRC() throws {
        let chunks = try PNGChunks.parse(Identicon(login: "grace2").png())
        XCTAssertEqual(chunks.map(\.type), ["IHDR", "IDAT", "IEND"])
        for chunk in chunks {
            XCTAssertEqual(chunk.storedCRC, PNGEncoder.crc(of: Array(chunk.type.utf8) + chunk.data), chunk.type)
        }
    }

    func testHeaderDeclaresA64By64RGBImage() throws {
        let header = try XCTUnwrap(try PNGChunks.parse(Identicon(login: "alan3").png()).first)
        XCTAssertEqual(header.data, [0, 0, 0, 64, 0, 0, 0, 64, 8, 2, 0, 0, 0])
    }

    func testImageDataInflatesTo64FilteredRowsOfThePixels() throws {
        let identicon = Identicon(login: "edsger4")
        let idat = try XCTUnwrap(try PNGChunks.parse(identicon.png()).first { $0.type == "IDAT" })
        let rowBytes = 1 + 64 * 3
        var inflated = [UInt8](repeating: 0, count: rowBytes * 64 + 16)
        var length = uLongf(inflated.count)
        let code = inflated.withUnsafeMutableBufferPointer { out in
            idat.data.withUnsafeBufferPointer { uncompress(out.baseAddress, &length, $0.baseAddress, uLong($0.count)) }
        }
        XCTAssertEqual(code, Z_OK)
        XCTAssertEqual(Int(length), rowBytes * 64)
        let pixels = identicon.pixels()
        for row in 0..<64 {
            XCTAssertEqual(inflated[row * rowBytes], 0, "filter byte of row \(row)")
            XCTAssertEqual(Array(inflated[(row * rowBytes + 1)..<((row + 1) * rowBytes)]), Array(pixels[(row * 192)..<((row + 1) * 192)]))
        }
    }

    func testSameLoginGivesIdenticalBytes() {
        XCTAssertEqual(Identicon(login: "ada1").png(), Identicon(login: "ada1").png())
    }

    func testDifferentLoginsGiveDifferentImages() {
        XCTAssertNotEqual(Identicon(login: "ada1").png(), Identicon(login: "grace2").png())
    }

    func testIdenticonIsLeftRightSymmetric() {
        let pixels = Identicon(login: "barbara5").pixels()
        for y in 0..<64 {
            for x in 0..<32 {
                let left = (y * 64 + x) * 3, right = (y * 64 + (63 - x)) * 3
                XCTAssertEqual(Array(pixels[left..<left + 3]), Array(pixels[right..<right + 3]))
            }
        }
    }

    func testEncoderRejectsAWrongPixelCount() {
        XCTAssertThrowsError(try PNGEncoder.encode(width: 2, height: 2, rgb: [1, 2, 3])) { error in
            XCTAssertEqual(error as? PNGEncoder.Failure, .pixelCountMismatch(expected: 12, got: 3))
        }
    }
}

/// A test-side PNG chunk reader, independent of the encoder it checks.
struct PNGChunks {
    struct Chunk {
        let type: String
        let data: [UInt8]
        let storedCRC: UInt32
    }

    struct Malformed: Error {}

    static func parse(_ bytes: [UInt8]) throws -> [Chunk] {
        guard bytes.count >= 8, Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { throw Malformed() }
        var chunks: [Chunk] = []
        var offset = 8
        func uint32(at index: Int) -> UInt32 {
            bytes[index..<index + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        while offset < bytes.count {
            guard offset + 12 <= bytes.count else { throw Malformed() }
            let length = Int(uint32(at: offset))
            guard offset + 12 + length <= bytes.count else { throw Malformed() }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let data = Array(bytes[offset + 8..<offset + 8 + length])
            chunks.append(Chunk(type: type, data: data, storedCRC: uint32(at: offset + 8 + length)))
            offset += 12 + length
        }
        return chunks
    }
}

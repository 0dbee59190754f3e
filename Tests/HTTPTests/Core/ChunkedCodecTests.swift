// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

final class ChunkedCodecTests: XCTestCase {
    func testFramesChunksWithHexSizes() {
        XCTAssertEqual(String(decoding: ChunkedCodec.chunk(Array("abc".utf8)), as: UTF8.self), "3\r\nabc\r\n")
        XCTAssertEqual(Array(ChunkedCodec.chunk([UInt8](repeating: 0, count: 4096)).prefix(6)), Array("1000\r\n".utf8))
        var out: [UInt8] = []
        ChunkedCodec.appendHex(255, to: &out)
        XCTAssertEqual(out, Array("ff".utf8))
    }

    func testReadsTheSizeOfASizeLineAndIgnoresExtensions() {
        XCTAssertEqual(ChunkedCodec.size(ofSizeLine: Array("1A".utf8)), .success(26))
        XCTAssertEqual(ChunkedCodec.size(ofSizeLine: Array("2;name=value".utf8)), .success(2))
        XCTAssertEqual(ChunkedCodec.size(ofSizeLine: Array("0 ".utf8)), .success(0))
    }

    func testRefusesSizeLinesThatCouldSmuggle() {
        XCTAssertEqual(ChunkedCodec.size(ofSizeLine: Array("".utf8)), .failure(.invalidSize))
        XCTAssertEqual(ChunkedCodec.size(ofSizeLine: Array("+5".utf8)), .failure(.invalidSize))
        XCTAssertEqual(ChunkedCodec.size(ofSizeLine: Array("5 x".utf8)), .failure(.invalidSize))
        XCTAssertEqual(ChunkedCodec.size(ofSizeLine: Array("1000000000000000".utf8)), .failure(.sizeTooLarge))
        XCTAssertEqual(ChunkedCodec.size(ofSizeLine: Array("5;a\u{0}".utf8)), .failure(.invalidExtension))
    }

    private func decode(_ text: String, splitEvery step: Int = .max, limits: ChunkedCodec.Decoder.Limits = .init(maxBodyBytes: 100, maxTrailerBytes: 64, maxTrailerFields: 2)) -> (body: String, outcome: ChunkedCodec.Decoder.Outcome, rest: String) {
        var decoder = ChunkedCodec.Decoder(limits: limits)
        var body: [UInt8] = []
        let bytes = Array(text.utf8)
        var offset = 0
        var outcome = ChunkedCodec.Decoder.Outcome.needMore
        while offset < bytes.count && outcome == .needMore {
            let end = bytes.count - offset > step ? offset + step : bytes.count
            let piece = Array(bytes[offset..<end])
            let (next, result) = piece.withUnsafeBytes { decoder.decode($0, from: 0, into: &body) }
            outcome = result
            offset += next
        }
        return (String(decoding: body, as: UTF8.self), outcome, String(decoding: bytes[offset...], as: UTF8.self))
    }

    func testDecodesABodyArrivingOneByteAtATime() {
        let wire = "3\r\nabc\r\n2;x=y\r\nde\r\n0\r\nX-Trailer: 1\r\n\r\nNEXT"
        for step in [1, 2, 7, .max] {
            let decoded = decode(wire, splitEvery: step)
            XCTAssertEqual(decoded.body, "abcde", "split every \(step)")
            XCTAssertEqual(decoded.outcome, .done, "split every \(step)")
            XCTAssertEqual(decoded.rest, "NEXT", "what follows the body is left for the next message")
        }
    }

    func testRefusesDataNotFollowedByCRLF() {
        XCTAssertEqual(decode("3\r\nabcX").outcome, .failed(.malformed("chunk data not followed by CRLF")))
    }

    func testRefusesABodyOverTheLimitBeforeBufferingIt() {
        let decoded = decode("65\r\n", limits: .init(maxBodyBytes: 100, maxTrailerBytes: 64, maxTrailerFields: 2))
        XCTAssertEqual(decoded.outcome, .failed(.bodyTooLarge))
        XCTAssertEqual(decoded.body, "")
    }

    func testValidatesTrailerFieldsLikeHeaderFields() {
        XCTAssertEqual(decode("0\r\nBad Name: x\r\n\r\n").outcome, .failed(.malformed("invalid character in header name")))
        XCTAssertEqual(decode("0\r\n a: folded\r\n\r\n").outcome, .failed(.malformed("obsolete line folding")))
    }

    func testLimitsTrailers() {
        XCTAssertEqual(decode("0\r\na: 1\r\nb: 2\r\nc: 3\r\n\r\n").outcome, .failed(.headersTooLarge("too many header fields")))
        XCTAssertEqual(decode("0\r\nlong: " + String(repeating: "x", count: 80) + "\r\n\r\n").outcome, .failed(.headersTooLarge("header fields too large")))
    }

    func testRefusesAnOverlongSizeLine() {
        XCTAssertEqual(decode("1;" + String(repeating: "e", count: 1100)).outcome, .failed(.malformed("chunk size line too long")))
    }
}

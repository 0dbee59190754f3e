// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamsTesting
import XCTest
@testable import HTTP

/// The four-bits-a-step Huffman decoder against its slow twin, the bit-by-bit walk of the code
/// tree: the same bytes for every valid code, the same refusal for every invalid one.
final class HPACKHuffmanTests: XCTestCase {
    /// Both decoders' answers for `bytes`: the decoded bytes, or nil when refused.
    private func decodings(_ bytes: [UInt8]) -> (fast: [UInt8]?, slow: [UInt8]?) {
        bytes.withUnsafeBufferPointer { buffer in
            let fast = try? HPACKHuffman.decode(buffer)
            var slow: [UInt8]? = []
            do { try HPACKHuffman.decodeBitByBit(buffer, into: &slow!) } catch { slow = nil }
            return (fast, slow)
        }
    }

    /// The codes of `symbols` (256 is EOS), most significant bit first, then `padding` bits.
    private func packed(_ symbols: [Int], padding: [UInt8]) -> [UInt8] {
        var bits: [UInt8] = []
        for symbol in symbols {
            let code = HPACKHuffmanTable.codes[symbol]
            let length = Int(HPACKHuffmanTable.lengths[symbol])
            for position in stride(from: length - 1, through: 0, by: -1) { bits.append(UInt8((code >> UInt32(position)) & 1)) }
        }
        bits += padding
        precondition(bits.count % 8 == 0, "the bits do not fill whole bytes")
        return stride(from: 0, to: bits.count, by: 8).map { start in bits[start..<start + 8].reduce(0) { $0 << 1 | $1 } }
    }

    /// Ones up to the next whole byte: the padding RFC 7541 §5.2 asks for.
    private func eosPadding(after symbols: [Int]) -> [UInt8] {
        let bits = symbols.reduce(0) { $0 + Int(HPACKHuffmanTable.lengths[$1]) }
        return Array(repeating: 1, count: (8 - bits % 8) % 8)
    }

    func testEverySymbolAloneDecodesToItselfInBothDecoders() {
        for symbol in 0..<256 {
            let answers = decodings(packed([symbol], padding: eosPadding(after: [symbol])))
            XCTAssertEqual(answers.fast, [UInt8(symbol)], "symbol \(symbol)")
            XCTAssertEqual(answers.slow, [UInt8(symbol)], "symbol \(symbol)")
        }
    }

    func testEOSAloneIsRefusedByBothDecoders() {
        let answers = decodings(packed([256], padding: eosPadding(after: [256])))
        XCTAssertNil(answers.fast)
        XCTAssertNil(answers.slow)
    }

    func testEOSWithinAStringIsRefusedByBothDecoders() {
        let symbols = [97, 256, 98]
        let answers = decodings(packed(symbols, padding: eosPadding(after: symbols)))
        XCTAssertNil(answers.fast)
        XCTAssertNil(answers.slow)
    }

    func testPaddingOfMoreThanSevenBitsIsRefusedByBothDecoders() {
        // "a" is 5 bits: 3 bits of padding end its byte, a whole byte of ones more makes 11.
        let answers = decodings(packed([97], padding: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]))
        XCTAssertNil(answers.fast)
        XCTAssertNil(answers.slow)
    }

    func testPaddingThatIsNotAllOnesIsRefusedByBothDecoders() {
        for padding: [UInt8] in [[0, 0, 0], [1, 1, 0], [0, 1, 1]] {
            let answers = decodings(packed([97], padding: padding))
            XCTAssertNil(answers.fast, "padding \(padding)")
            XCTAssertNil(answers.slow, "padding \(padding)")
        }
    }

    func testSevenBitsOfPaddingAreAcceptedByBothDecoders() {
        // Symbol 199's code is 25 bits: 7 bits of padding end its fourth byte.
        XCTAssertEqual(HPACKHuffmanTable.lengths[199], 25)
        let answers = decodings(packed([199], padding: [1, 1, 1, 1, 1, 1, 1]))
        XCTAssertEqual(answers.fast, [199])
        XCTAssertEqual(answers.slow, [199])
    }

    func testCodesEndingOnAByteNeedNoPaddingInBothDecoders() {
        // Eight 5-bit codes ("0" and "a"): 40 bits, five whole bytes.
        let symbols = [48, 97, 48, 97, 48, 97, 48, 97]
        let answers = decodings(packed(symbols, padding: []))
        XCTAssertEqual(answers.fast, symbols.map(UInt8.init))
        XCTAssertEqual(answers.slow, symbols.map(UInt8.init))
    }

    func testEmptyInputIsTheEmptyStringInBothDecoders() {
        let answers = decodings([])
        XCTAssertEqual(answers.fast, [])
        XCTAssertEqual(answers.slow, [])
    }

    func testRandomStringsRoundTripThroughBothDecoders() {
        var random = SeededRandom(seed: 7541)
        for round in 0..<2000 {
            let count = Int.random(in: 0...80, using: &random)
            // Mostly the header values' ASCII, sometimes any byte (the long codes).
            let anyByte = round % 4 == 0
            let input = (0..<count).map { _ in anyByte ? UInt8.random(in: 0...255, using: &random) : UInt8.random(in: 32...126, using: &random) }
            var encoded: [UInt8] = []
            HPACKHuffman.encode(input, into: &encoded)
            let answers = decodings(encoded)
            XCTAssertEqual(answers.fast, input, "round \(round)")
            XCTAssertEqual(answers.slow, input, "round \(round)")
        }
    }

    /// The encoder over bytes in place (the fast path) against the generic one, after bytes already in the buffer.
    func testEncodingBytesInPlaceWritesWhatTheGenericEncoderWrites() {
        var random = SeededRandom(seed: 9114)
        for round in 0..<2000 {
            let count = Int.random(in: 0...80, using: &random)
            let input = (0..<count).map { _ in round % 3 == 0 ? UInt8.random(in: 0...255, using: &random) : UInt8.random(in: 32...126, using: &random) }
            let before = (0..<(round % 5)).map { UInt8($0) }
            var slow = before
            HPACKHuffman.encode(input, into: &slow)
            var fast = before
            input.withUnsafeBufferPointer { HPACKHuffman.encode($0, encodedCount: HPACKHuffman.encodedCount($0), into: &fast) }
            XCTAssertEqual(fast, slow, "round \(round)")
        }
    }

    func testRandomBytesGetTheSameAnswerFromBothDecoders() {
        var random = SeededRandom(seed: 9113)
        var refused = 0
        for round in 0..<5000 {
            let count = Int.random(in: 0...24, using: &random)
            // Bytes near 0xFF reach the long codes, EOS and long paddings more often.
            let input = (0..<count).map { _ in Bool.random(using: &random) ? UInt8.random(in: 0...255, using: &random) : UInt8.random(in: 0xF0...0xFF, using: &random) }
            let answers = decodings(input)
            XCTAssertEqual(answers.fast, answers.slow, "round \(round): \(input)")
            if answers.slow == nil { refused += 1 }
        }
        XCTAssertGreaterThan(refused, 100, "the inputs should include invalid codes")
    }

    /// The machine's notes (a NUL, CR or LF; a byte above 0x7F) against reading the bytes it wrote.
    func testTheMachinesNotesSayWhatTheDecodedBytesHold() throws {
        var random = SeededRandom(seed: 7541)
        var inputs: [[UInt8]] = (0...255).map { [UInt8($0)] } + [[0x61, 0x0A, 0x62], [0xC3, 0xA9], []]
        for _ in 0..<3000 {
            inputs.append((0..<Int.random(in: 0...24, using: &random)).map { _ in
                Bool.random(using: &random) ? UInt8.random(in: 0x20...0x7E, using: &random) : UInt8.random(in: 0...255, using: &random)
            })
        }
        for input in inputs {
            var coded: [UInt8] = []
            HPACKHuffman.encode(input, into: &coded)
            var out = [UInt8](repeating: 0, count: HPACKHuffman.decodedCapacity(coded.count))
            let (count, notes) = try coded.withUnsafeBufferPointer { coded in
                try out.withUnsafeMutableBufferPointer { try HPACKHuffman.decodeNoting(coded, into: $0) }
            }
            XCTAssertEqual(Array(out[..<count]), input)
            XCTAssertEqual(notes, input.withUnsafeBufferPointer { HPACKHuffman.Notes(of: $0) }, "\(input)")
        }
    }

    func testDecodedStringIsTheFastDecodersBytes() throws {
        var encoded: [UInt8] = []
        HPACKHuffman.encode(Array("W/\"c847506f3c6bc8c9cce22423ae889774\"".utf8), into: &encoded)
        let string = try encoded.withUnsafeBufferPointer { (bytes) throws(HPACKError) in try HPACKHuffman.decodeString(bytes) }
        XCTAssertEqual(string, "W/\"c847506f3c6bc8c9cce22423ae889774\"")
    }
}

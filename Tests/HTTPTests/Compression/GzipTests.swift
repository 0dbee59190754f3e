// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import XCTest

final class GzipTests: XCTestCase {
    func testRoundTripsThroughGzip() throws {
        let text = Array(String(repeating: "stream service ", count: 1000).utf8)
        let compressed = try Gzip.compress(text)
        XCTAssertEqual(Array(compressed.prefix(2)), [0x1F, 0x8B])
        XCTAssertEqual(try Gzip.decompress(compressed), text)
    }

    func testInflatesBodiesFarLargerThanTheirFirstOutputGuess() throws {
        // 4 MiB of a repeated line compresses about 1000×: the output buffer doubles many times.
        let text = Array(String(repeating: "0123456789abcdef\n", count: 4 << 16).utf8)
        let compressed = try Gzip.compress(text)
        XCTAssertLessThan(compressed.count * 100, text.count)
        XCTAssertEqual(try Gzip.decompress(compressed), text)
    }

    func testInflatesAnOutputExactlyAtTheLimit() throws {
        let text = [UInt8](repeating: 7, count: 10_000)
        XCTAssertEqual(try Gzip.decompress(try Gzip.compress(text), maximumOutput: 10_000), text)
        XCTAssertThrowsError(try Gzip.decompress(try Gzip.compress(text), maximumOutput: 9_999)) { error in
            XCTAssertEqual(error as? Gzip.Failure, .outputTooLarge)
        }
    }

    func testReportsATruncatedMemberAsTruncated() throws {
        let compressed = try Gzip.compress(Array(String(repeating: "stream service ", count: 1000).utf8))
        XCTAssertThrowsError(try Gzip.decompress(Array(compressed.dropLast(12)))) { error in
            XCTAssertEqual(error as? Gzip.Failure, .truncated)
        }
    }

    func testInflatesAnEmptyMember() throws {
        XCTAssertEqual(try Gzip.decompress(try Gzip.compress([])), [])
    }

    func testExpectsTheSizeAGzipMemberStatesInItsTrailer() throws {
        let text = Array(String(repeating: "stream service ", count: 1000).utf8)
        XCTAssertEqual(Gzip.expectedSize(of: try Gzip.compress(text)), text.count)
    }

    func testTrustsAStatedSizeOnlyUpToDeflatesDensestRatio() throws {
        var forged = try Gzip.compress(Array("tiny".utf8))
        forged.replaceSubrange(forged.count - 4..<forged.count, with: [0xFF, 0xFF, 0xFF, 0x7F])
        XCTAssertEqual(Gzip.expectedSize(of: forged), forged.count * 1032)
        XCTAssertThrowsError(try Gzip.decompress(forged))
    }

    func testRefusesOutputOverTheLimit() throws {
        let compressed = try Gzip.compress([UInt8](repeating: 0, count: 1 << 20))
        XCTAssertThrowsError(try Gzip.decompress(compressed, maximumOutput: 1000))
    }

    func testRejectsGarbage() {
        XCTAssertThrowsError(try Gzip.decompress(Array("not compressed at all".utf8)))
    }

    // MARK: - The trailer checked by this module (`Check.folded`) against zlib's own check (its slow twin)

    private let page = Array(String(repeating: "{\"login\":\"octocat\",\"id\":1},", count: 900).utf8)

    /// Both checks' answers for `bytes`: the output or the failure.
    private func bothChecks(_ bytes: [UInt8]) -> (folded: Result<[UInt8], Gzip.Failure>, zlib: Result<[UInt8], Gzip.Failure>) {
        func answer(_ check: Gzip.Check) -> Result<[UInt8], Gzip.Failure> {
            Result { try Gzip.decompress(bytes, checking: check) }.mapError { $0 as! Gzip.Failure }
        }
        return (answer(.folded), answer(.zlib))
    }

    func testBothChecksInflateAnIntactMemberAlike() throws {
        let answers = bothChecks(try Gzip.compress(page))
        XCTAssertEqual(answers.folded, .success(page))
        XCTAssertEqual(answers.folded, answers.zlib)
    }

    /// The page's member with a bit flipped in the byte `fromEnd` bytes before its end.
    private func pageMember(flippingByte fromEnd: Int) throws -> [UInt8] {
        var member = try Gzip.compress(page)
        member[member.count - fromEnd] ^= 0x01
        return member
    }

    func testBothChecksRefuseAMemberWhoseCRCIsWrong() throws {
        let answers = bothChecks(try pageMember(flippingByte: 8))
        XCTAssertEqual(answers.folded, .failure(.zlib(-3)), "Z_DATA_ERROR")
        XCTAssertEqual(answers.folded, answers.zlib)
    }

    func testBothChecksRefuseAMemberWhoseLengthIsWrong() throws {
        let answers = bothChecks(try pageMember(flippingByte: 4))
        XCTAssertEqual(answers.folded, .failure(.zlib(-3)), "Z_DATA_ERROR")
        XCTAssertEqual(answers.folded, answers.zlib)
    }

    func testBothChecksReadTheTrailerBeforeBytesAfterTheMember() throws {
        let answers = bothChecks(try Gzip.compress(page) + Array("trailing garbage".utf8))
        XCTAssertEqual(answers.folded, .success(page))
        XCTAssertEqual(answers.folded, answers.zlib)
    }

    func testBothChecksAgreeOnEveryCorruptedByteOfAMember() throws {
        let member = try Gzip.compress(Array(page.prefix(700)))
        for index in member.indices {
            var corrupted = member
            corrupted[index] ^= 0x5A
            let answers = bothChecks(corrupted)
            XCTAssertEqual(answers.folded, answers.zlib, "byte \(index) of \(member.count)")
        }
    }

    func testBothChecksAgreeOnEveryTruncationOfAMember() throws {
        let member = try Gzip.compress(Array(page.prefix(700)))
        for count in 0..<member.count {
            let answers = bothChecks(Array(member.prefix(count)))
            XCTAssertEqual(answers.folded, answers.zlib, "\(count) of \(member.count) bytes")
        }
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import NetCore
import XCTest

/// The NetCore helpers that replaced Foundation-only `String` API in the product
/// (so the binary links FoundationEssentials, not ICU) agree with the Foundation
/// calls they replaced.
final class FoundationFreeTextTests: XCTestCase {
    func testTrimmingWhitespaceMatchesFoundationWhitespaces() {
        for value in 0...0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            XCTAssertEqual(scalar.isHorizontalWhitespace, CharacterSet.whitespaces.contains(scalar), "U+\(String(value, radix: 16))")
        }
        let samples = [
            "", " ", "\t a b \t", "\u{3000}x\u{00A0}", "\n x \n", " \u{301}x ", "é", "  12  ", "\u{200B}a\u{200B}",
            "a\r\n", " \u{1F600} ", "chunked ; ext", "\u{2028}x",
        ]
        for sample in samples {
            XCTAssertEqual(sample.trimmingWhitespace(), sample.trimmingCharacters(in: .whitespaces), sample.debugDescription)
            let sub = sample[...]
            XCTAssertEqual(sub.trimmingWhitespace(), sub.trimmingCharacters(in: .whitespaces), sample.debugDescription)
        }
    }

    func testLetterMarkOrNumberMatchesFoundationAlphanumericsForCommonScripts() {
        // Code points Foundation's (older) Unicode tables do not yet assign may differ.
        for value in Array(0...0x24F) + Array(0x370...0x3FF) + Array(0x400...0x4FF) + Array(0x3040...0x30FF) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            XCTAssertEqual(scalar.isLetterMarkOrNumber, CharacterSet.alphanumerics.contains(scalar), "U+\(String(value, radix: 16))")
        }
    }

    func testPathSegmentEncodingMatchesFoundation() {
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
        var samples = ["a b/é%;?", "octocat", "", "a~b_c.d-e", "日本", "\u{1F600}", "%2F", "a+b", "user[bot]"]
        samples += (0..<128).map { String(Unicode.Scalar(UInt8($0))) }
        for sample in samples {
            XCTAssertEqual(PercentEncoding.encodePathSegment(sample), sample.addingPercentEncoding(withAllowedCharacters: allowed), sample.debugDescription)
        }
    }

    /// One deliberate difference: this toolchain's Foundation decodes a lone `%A9` (and only
    /// that invalid UTF-8 byte) to U+FFFD; `decodeStrictly` returns nil for it like for `%80`…`%FF`.
    func testStrictDecodingMatchesFoundation() {
        var samples = [
            "%41%zz", "%", "%4", "a+b%20c", "%C3%A9", "%FF", "%80", "%00x", "%c3%a9", "", "abc", "%%41", "%41%", "%E6%97",
            "%2f", "é%20", "%ED%A0%80", "%C0%80", "%F0%9F%98%80",
        ]
        let parts = ["%", "4", "1", "g", "C3", "x"]
        for a in parts { for b in parts { samples += [a + b, "%" + a + b] } }
        for sample in samples {
            XCTAssertEqual(PercentEncoding.decodeStrictly(sample), sample.removingPercentEncoding, sample.debugDescription)
        }
    }
}

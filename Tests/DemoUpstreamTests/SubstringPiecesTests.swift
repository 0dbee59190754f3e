// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Domain
@testable import DemoUpstream

final class SubstringPiecesTests: XCTestCase {
    let texts = ["", "/", "//", "/users", "/users/ada1/repos", "a=1&b=2", "&&a&", "=x", "a==b", "/u/3?v=4", "é/x", "?\u{301}/a", "a/\u{301}b/c"]

    func testPiecesAreWhatSplitCutsForEverySeparatorAndOption() {
        for text in texts {
            for separator: Unicode.Scalar in ["/", "&", "=", "?"] {
                for (maxSplits, omitting) in [(Int.max, true), (Int.max, false), (1, false), (1, true)] {
                    let expected = Substring(text).split(separator: Character(separator), maxSplits: maxSplits, omittingEmptySubsequences: omitting)
                    let pieces = Substring(text).pieces(separatedBy: separator, isASCII: text.utf8.allSatisfy { $0 < 0x80 }, maxSplits: maxSplits, omittingEmptySubsequences: omitting)
                    XCTAssertEqual(pieces, expected, "\(text) at \(separator), \(maxSplits), \(omitting)")
                }
            }
        }
    }

    func testASeparatorFollowedByACombiningMarkIsNoSeparator() {
        XCTAssertEqual(Substring("a/\u{301}b/c").pieces(separatedBy: "/", isASCII: false), ["a/\u{301}b", "c"])
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamsTesting
import XCTest
@testable import Server

/// Reading `Authorization: Bearer`: the byte reader and its `Character` twin.
final class BearerTokenTests: XCTestCase {
    func testTheSchemeIsCaseInsensitiveAndSpacesAroundTheTokenAreDropped() {
        XCTAssertEqual(BearerToken.fromAuthorization("Bearer abc.def"), "abc.def")
        XCTAssertEqual(BearerToken.fromAuthorization(" bEaReR   abc.def\t"), "abc.def")
        XCTAssertNil(BearerToken.fromAuthorization("Basic abc"))
        XCTAssertNil(BearerToken.fromAuthorization("Bearer    "))
        XCTAssertNil(BearerToken.fromAuthorization("Bearer\tabc"), "the scheme is followed by a space")
    }

    /// Seeded values built of schemes, blanks, Unicode whitespace, combining marks and token
    /// text: the byte reader answers what the `Character` reader does.
    func testTheByteReaderAgreesWithTheCharacterTwin() {
        let pieces = ["Bearer", "bearer", "BEARER", "BeArEr", "Basic", "bearerx", " ", "  ", "\t", "\u{A0}", "\u{301}",
                      "\u{3000}", "abc.def", "x", "é", "=", "\r\n", "ǅ"]
        var random = SeededRandom(seed: 0xBEA_4E4)
        var found = 0
        for _ in 0..<20_000 {
            let value = (0..<Int.random(in: 0..<7, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let fast = BearerToken.fromAuthorization(value)
            XCTAssertEqual(fast, BearerToken.fromAuthorizationByCharacters(value), value.debugDescription)
            if fast != nil { found += 1 }
        }
        XCTAssertGreaterThan(found, 100, "the seeded values include tokens")
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import Server
import HTTPTestSupport

/// A token in the query never reaches the log, however its parameter's name is spelt.
final class SecretRedactionTests: XCTestCase {
    func testATokenUnderAPercentEncodedParameterNameIsAcceptedButRedactedInTheAccessLog() throws {
        let auth = try AuthHarness(self)
        let token = try auth.mint.token(["sub": "alice", "streamservice": ["subscribe": ["*"]]])
        // `%5F` is `_`: the query parser reads this as `access_token`, and so must the log.
        do {
            let feed = try auth.events("/events?access%5Ftoken=\(token)")
            XCTAssertEqual(feed.status, 200, "the token was read under its encoded name")
        } // closed here: the stream's access-log line is written when it ends
        XCTAssertEqual(try auth.get("/health?acc%65ss_tok%65n=\(token)").status, 200)
        XCTAssertEqual(auth.app.accessLogLines(count: 2).count, 2)
        let written = auth.app.output.lines().joined(separator: "\n")
        XCTAssertFalse(written.contains(String(token.split(separator: ".")[2])), "no token signature in any log line:\n\(written)")
        XCTAssertTrue(written.contains("access%5Ftoken=redacted"), written)
        XCTAssertTrue(written.contains("acc%65ss_tok%65n=redacted"), written)
    }

    func testEverySpellingOfTheNameIsRedactedAndOtherParametersAreKept() {
        XCTAssertEqual(SecretRedaction.target("/events?access%5Ftoken=abc&pipeline=users"), "/events?access%5Ftoken=redacted&pipeline=users")
        XCTAssertEqual(SecretRedaction.target("/events?%61ccess_token=abc"), "/events?%61ccess_token=redacted")
        XCTAssertEqual(SecretRedaction.target("/events?access_token=abc"), "/events?access_token=redacted")
        XCTAssertEqual(SecretRedaction.target("/users?name=100%25&limit=2"), "/users?name=100%25&limit=2")
        XCTAssertEqual(SecretRedaction.target("/users?access%5Ftokens=abc"), "/users?access%5Ftokens=abc")
    }
}

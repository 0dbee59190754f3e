// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import Domain
@testable import DemoUpstream

/// The fast reader of user objects gives what `JSONDecoder` gives, or nothing (and the
/// client then decodes with `JSONDecoder`).
final class GitHubUserReaderTests: XCTestCase {
    private func decoded(_ json: String) throws -> [GitHubUser] {
        try JSONDecoder().decode([GitHubUser].self, from: Data(json.utf8))
    }

    func testTheDemoUpstreamsPagesReadAsJSONDecoderReadsThem() throws {
        let upstream = DemoUpstream(configuration: .init(users: 120))
        for target in ["/users?since=0&per_page=100", "/users?since=100&per_page=30", "/users?since=500&per_page=5"] {
            let body = upstream.answer(DemoRequest(target: target, host: "demo.test:1")).body
            let expected = try JSONDecoder().decode([GitHubUser].self, from: Data(body))
            XCTAssertEqual(GitHubUserReader.list(body), expected, target)
        }
    }

    func testAPublicProfileReadsAsJSONDecoderReadsIt() throws {
        let body = DemoUpstream(configuration: .init(users: 10)).answer(DemoRequest(target: "/users/ada1", host: "demo.test:1")).body
        let expected = try JSONDecoder().decode(GitHubUser.self, from: Data(body))
        XCTAssertEqual(GitHubUserReader.user(body), expected)
        XCTAssertNotNil(expected.name, "the profile has fields beyond the list's")
    }

    func testEscapesNullsAndUnknownNestedValuesAreRead() throws {
        let json = #"""
        [ {"login":"a\"b\\c\/d","id":-7,"avatar_url":"http://x/\u00e9\ud83d\ude00","name":null,"bio":"line\nbreak\ttab",
           "plan":{"name":"pro","seats":[1,2.5e3,{"x":true}],"private":false},"followers":0,"site_admin":false} ,
          {"id":2,"login":"z","avatar_url":"u"} ]
        """#
        let read = try XCTUnwrap(GitHubUserReader.list(Array(json.utf8)))
        XCTAssertEqual(read, try decoded(json))
        XCTAssertEqual(read[0].login, #"a"b\c/d"#)
        XCTAssertEqual(read[0].avatarUrl, "http://x/é😀")
        XCTAssertNil(read[0].name)
    }

    func testAnEmptyListIsRead() {
        XCTAssertEqual(GitHubUserReader.list(Array(" [ ] ".utf8)), [])
    }

    func testShapesItDoesNotReadAreLeftToJSONDecoder() {
        let unread = [
            #"[{"login":"a","id":1.0,"avatar_url":"u"}]"#,          // not a plain integer
            #"[{"login":"a","id":1,"avatar_url":"u","id":2}]"#,     // a repeated field
            #"[{"login":"a","id":1,"avatar_url":"u","name":5}]"#,   // a wrong type
            #"[{"login":"a","id":1}]"#,                             // a required field missing
            #"[{"login":"a","id":1,"avatar_url":"u"}] x"#,          // something after the document
            #"[{"login":"a\q","id":1,"avatar_url":"u"}]"#,          // a malformed escape
            #"[{"login":"a","id":01,"avatar_url":"u"}]"#,           // a leading zero
            #"[{"login":"a","id":99999999999999999999,"avatar_url":"u"}]"#, // too large for Int
        ]
        for json in unread { XCTAssertNil(GitHubUserReader.list(Array(json.utf8)), json) }
    }

    /// The reader tests eight bytes at a time: a byte needing attention at any offset of a
    /// word, in read and in skipped strings, must read as `JSONDecoder` reads it (or not at all).
    func testAnEscapeControlOrNonASCIIByteAtAnyOffsetReadsAsJSONDecoderReadsIt() throws {
        for special in [#"\""#, #"\\"#, #"\n"#, "é", "\u{1}", "\u{7F}", "🧑"] {
            for offset in 0..<18 {
                let text = String(repeating: "a", count: offset) + special + String(repeating: "b", count: 17 - offset)
                let json = #"[{"login":"\#(text)","id":1,"avatar_url":"x","skipped":"\#(text)"}]"#
                let expected = try? decoded(json)
                let read = GitHubUserReader.list(Array(json.utf8))
                XCTAssertEqual(read, expected, text.debugDescription)
            }
        }
    }
}

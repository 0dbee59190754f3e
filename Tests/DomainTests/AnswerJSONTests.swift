// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import StreamServiceJSON
import HTTPTestSupport
import XCTest
@testable import Domain

/// The `/users` answer types write the same bytes as `JSONEncoder` with sorted keys and
/// unescaped slashes, the encoder the routes used before.
final class AnswerJSONTests: XCTestCase {
    let odd = "o\"d\\d/\n\t\u{1}\u{7F} é 🧑‍💻 \u{2028}"

    func user(_ login: String, embed: Bool = false, placeholder: Bool = false, profile: GitHubUser? = nil) -> UserWithAvatar {
        let image = AvatarImage(bytes: Array(login.utf8), contentType: "image/png; note=\"\(login)\"")
        let metadata = AvatarMetadata(login: login, upstreamUrl: "http://127.0.0.1:1/u/\(login)?v=4", image: image, embedDataURI: embed, placeholder: placeholder)
        let entry = UserWithAvatar(id: login.utf8.count, login: login, avatar: metadata)
        return profile.map { entry.with(profile: $0) } ?? entry
    }

    func testAUserListIsByteIdenticalToJSONEncoders() throws {
        let users = [user("ada1"), user(odd), user("x", embed: true), user("y", placeholder: true), user("", embed: true, placeholder: true)]
        XCTAssertEqual(JSONOutput.encode(users), try ReferenceJSON.encode(users))
    }

    func testUsersWithProfilesAreByteIdenticalToJSONEncoders() throws {
        let full = GitHubUser(login: "ada1", id: 1, avatarUrl: "x", name: odd, company: "@acme/\"co\"", blog: nil, location: "Zürich",
                              bio: "line\nbreak", publicRepos: 12, followers: -1)
        let empty = GitHubUser(login: "grace2", id: 2, avatarUrl: "x")
        let users = [user("ada1", profile: full), user("grace2", profile: empty), user("alan3")]
        XCTAssertEqual(JSONOutput.encode(users), try ReferenceJSON.encode(users))
    }

    func testAnEmptyListIsByteIdenticalToJSONEncoders() throws {
        XCTAssertEqual(JSONOutput.encode([UserWithAvatar]()), try ReferenceJSON.encode([UserWithAvatar]()))
    }
}

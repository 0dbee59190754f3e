// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import Domain

/// The avatar stage's pipeline event detail, written without interpolation: the same text.
final class AvatarAttachmentTests: XCTestCase {
    func testTheDetailNamesTheLoginAndTheImagesSizeInBytes() {
        let user = AvatarAttachment(GitHubUser(login: "ada-lovelace", id: 1, avatarUrl: "http://127.0.0.1/a.png"), index: 0, query: UsersQuery())

        for size in [0, 7, 10, 165, 99_999, 1_234_567] {
            XCTAssertEqual(user.detail(AvatarImage(bytes: Array(repeating: 0, count: size), contentType: "image/png")), "ada-lovelace: \(size) bytes")
        }
    }

    func testANonASCIILoginIsKeptWhole() {
        let user = AvatarAttachment(GitHubUser(login: "zoë", id: 2, avatarUrl: "http://127.0.0.1/z.png"), index: 0, query: UsersQuery())

        XCTAssertEqual(user.detail(AvatarImage(bytes: [1, 2, 3], contentType: "image/png")), "zoë: 3 bytes")
    }

    func testAnOutcomesDetailIsItsImagesDetail() {
        let user = AvatarAttachment(GitHubUser(login: "ada-lovelace", id: 1, avatarUrl: "http://127.0.0.1/a.png"), index: 0, query: UsersQuery())
        let image = AvatarImage(bytes: Array(repeating: 7, count: 165), contentType: "image/png")

        XCTAssertEqual(user.detail(user.outcome(image, placeholder: false)), user.detail(image))
    }
}

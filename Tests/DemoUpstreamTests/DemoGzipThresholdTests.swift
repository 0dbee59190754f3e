// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import XCTest
import Domain
@testable import DemoUpstream

/// Stored answers under the compressor's threshold go as they are, with nothing stored for them.
final class DemoGzipThresholdTests: XCTestCase {
    let upstream = DemoUpstream(configuration: .init(users: 30))
    let encodings = DemoGzipVariants(compressionMinimumBytes: 256)

    func response(_ target: String) -> Response {
        encodings.response(for: upstream.answer(DemoRequest(target: target, host: "demo.test")), acceptEncoding: "gzip")
    }

    func testAStoredAnswerUnderTheThresholdIsSentAsItIsWithoutAStoredEncoding() throws {
        let directory = DemoDirectory(userCount: 30)
        let user = try XCTUnwrap((1...30).compactMap(directory.user(id:)).first { directory.repos(of: $0).isEmpty })
        let response = response("/users/\(user.login)/repos")
        XCTAssertTrue(upstream.answer(DemoRequest(target: "/users/\(user.login)/repos", host: "demo.test")).isStored)
        guard case .bytes(let body) = response.body else { return XCTFail("a fixed body") }
        XCTAssertEqual(body, Array("[]".utf8))
        XCTAssertNil(response.headers["Content-Encoding"])
        XCTAssertNil(response.headers["Vary"], "the writer adds none under its threshold either")
        XCTAssertEqual(encodings.count, 0)
    }

    func testAnAvatarIsSentAsItIsWithoutAStoredEncoding() {
        let response = response("/u/3")
        XCTAssertEqual(response.headers["Content-Type"], "image/png")
        XCTAssertNil(response.headers["Content-Encoding"])
        XCTAssertEqual(encodings.count, 0)
    }

    func testAStoredAnswerOverTheThresholdIsEncodedOnceAndKept() {
        for _ in 0..<2 {
            XCTAssertEqual(response("/users?per_page=5").headers["Content-Encoding"], "gzip")
        }
        XCTAssertEqual(encodings.count, 1)
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTPTestSupport
import XCTest
@testable import HTTP

/// Malformed requests (RFC 9113 §8.1.1) sent by the Python frame client: each is a stream error of
/// type PROTOCOL_ERROR, never a response, and the connection's next stream is answered.
final class HTTP2MalformedRequestTests: XCTestCase {
    private func assertMalformed(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let server = try HTTP2TestServer()
        let result = try FrameClient.run(name, port: server.port)
        XCTAssertEqual(result.reset(of: 1), Int(HTTP2ErrorCode.protocolError.rawValue), "\(result)", file: file, line: line)
        XCTAssertNil(result.status(of: 1), "no handler ran: \(result)", file: file, line: line)
        XCTAssertEqual(result.status(of: 3), 200, "\(result)", file: file, line: line)
        XCTAssertNil(result.goAwayCode, "\(result)", file: file, line: line)
    }

    func testContentLengthOnHeadersWithEndStreamIsAStreamProtocolError() throws {
        try assertMalformed("content-length-with-end-stream")
    }

    func testContentLengthLongerThanTheBodyBeforeTrailersIsAStreamProtocolError() throws {
        try assertMalformed("content-length-then-trailers")
    }

    func testMethodThatIsNotATokenIsAStreamProtocolError() throws {
        try assertMalformed("method-not-a-token")
    }
}

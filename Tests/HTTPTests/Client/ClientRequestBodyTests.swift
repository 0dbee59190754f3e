// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import HTTP
import HTTPTestSupport

/// A request's body over HTTP/1.1, against a real server on 127.0.0.1 that echoes it: a small one
/// leaves appended to its head, a large one (an OTLP batch) written after it (`ClientExchange.use`).
final class ClientRequestBodyTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws {
        var router = Router()
        router.post("/echo") { request in .just(Response(status: .ok, body: .bytes(request.body))) }
        server = try TestServer(router: router)
    }

    override func tearDown() {
        server = nil
    }

    private func echoed(_ body: [UInt8], via client: HTTPClient) throws -> [UInt8] {
        let request = HTTPClientRequest(method: .post, url: URL(string: "http://127.0.0.1:\(server.port)/echo")!, body: body)
        return try outcome(of: request, via: client).get().body
    }

    func testABodyBelowTheSizeWrittenApartArrivesWhole() throws {
        let body = (0..<(ClientExchange.bodyWrittenApart - 1)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        XCTAssertEqual(try echoed(body, via: HTTPClient()), body)
    }

    /// A lent body's pieces, joined, are the bytes the server gets: small (appended to the head)
    /// and large (written apart), on one connection.
    func testALentBodyArrivesAsItsPiecesJoinedSmallAndLarge() throws {
        let client = HTTPClient()
        let url = URL(string: "http://127.0.0.1:\(server.port)/echo")!
        for size in [5, ClientExchange.bodyWrittenApart * 2 + 3] {
            let pieces = [Array("head".utf8), (0..<size).map { UInt8(truncatingIfNeeded: $0 * 11) }, [], Array("tail".utf8)]
            let request = HTTPClientRequest(method: .post, url: url, lentBody: LentPieces(pieces))
            XCTAssertEqual(try outcome(of: request, via: client).get().body, pieces.flatMap { $0 }, "\(size)")
        }
    }

    func testABodyWrittenApartFromItsHeadArrivesWholeAndTheConnectionServesTheNextRequest() throws {
        let client = HTTPClient()
        let large = (0..<(ClientExchange.bodyWrittenApart * 3 + 5)).map { UInt8(truncatingIfNeeded: $0 * 13) }
        XCTAssertEqual(try echoed(large, via: client), large)
        XCTAssertEqual(try echoed(Array("next".utf8), via: client), Array("next".utf8))
    }
}

/// A lent body of arrays.
final class LentPieces: LentRequestBody {
    let pieces: [[UInt8]]
    init(_ pieces: [[UInt8]]) { self.pieces = pieces }
    var count: Int { pieces.reduce(0) { $0 + $1.count } }
    func forEachPiece(_ piece: (UnsafeRawBufferPointer) -> Void) {
        for bytes in pieces { bytes.withUnsafeBytes(piece) }
    }
}

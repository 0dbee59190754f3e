// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import XCTest
@testable import HTTP
import HTTPTestSupport

final class RouterTests: XCTestCase {
    private func pattern(_ router: Router, _ method: HTTPMethod, _ path: String) -> String? {
        if case .matched(_, let pattern, _) = router.resolve(method: method, path: path) { return pattern }
        return nil
    }

    func testLiteralSegmentsWinOverParametersWhateverTheOrder() {
        var router = Router()
        router.get("/users/{login}") { _ in .just(.text("user")) }
        router.get("/users/stream") { _ in .just(.text("stream")) }
        XCTAssertEqual(pattern(router, .get, "/users/stream"), "/users/stream")
        XCTAssertEqual(pattern(router, .get, "/users/octocat"), "/users/{login}")
    }

    func testCapturesParameters() {
        var router = Router()
        router.get("/users/{login}/repos/{repo}") { _ in .just(.text("")) }
        guard case .matched(_, _, let parameters) = router.resolve(method: .get, path: "/users/a/repos/b") else { return XCTFail() }
        XCTAssertEqual(parameters, ["login": "a", "repo": "b"])
    }

    func testGetRoutesAnswerHead() {
        var router = Router()
        router.get("/x") { _ in .just(.text("")) }
        XCTAssertEqual(pattern(router, .head, "/x"), "/x")
    }

    func testReportsAllowedMethodsForAKnownPath() {
        var router = Router()
        router.get("/x") { _ in .just(.text("")) }
        router.post("/x") { _ in .just(.text("")) }
        guard case .methodNotAllowed(let allowed) = router.resolve(method: .delete, path: "/x") else { return XCTFail() }
        XCTAssertEqual(allowed, [.get, .head, .post])
    }

    func testRequestSplitsAndDecodesItsTarget() {
        let request = Request(method: .get, target: "/a%20b?q=x%2By&flag&n=1+2")
        XCTAssertEqual(request.path, "/a b")
        XCTAssertEqual(request.query["q"], "x+y")
        XCTAssertEqual(request.query["flag"], "")
        XCTAssertEqual(request.query["n"], "1 2")
        XCTAssertNil(request.query["missing"])
    }

    func testAQueryPairWithoutValueOrNameAndEmptyPairsAreKeptOrSkipped() {
        let request = Request(method: .get, target: "/p?flag&&=z&y=&")
        XCTAssertEqual(request.query.map(\.name), ["flag", "", "y"])
        XCTAssertEqual(request.query.map(\.value), ["", "z", ""])
    }

    func testAnEmptyQueryLeavesThePathAlone() {
        let request = Request(method: .get, target: "/p?")
        XCTAssertEqual(request.path, "/p")
        XCTAssertTrue(request.query.isEmpty)
    }

    func testOnlyTheQueryDecodesPlusAndEscapesAreDecodedWhereverTheyAre() {
        let request = Request(method: .get, target: "/a+b%2Fc?k%3D=v+w%26")
        XCTAssertEqual(request.path, "/a+b/c")
        XCTAssertEqual(request.query["k="], "v w&")
    }

    func testAnAbsoluteFormTargetKeepsItsPathAndQuery() {
        let request = Request(method: .get, target: "http://example.test/x%20y?q=1")
        XCTAssertEqual(request.path, "/x y")
        XCTAssertEqual(request.query["q"], "1")
    }

    func testAnAssignedQueryReplacesTheTargets() {
        var request = Request(method: .get, target: "/p?a=1")
        request.query = QueryItems([("b", "2")])
        XCTAssertNil(request.query["a"])
        XCTAssertEqual(request.query["b"], "2")
    }

    func testARouterOfOneHandlerSendsEveryPathToIt() {
        let router = Router { _ in .just(.text("")) }
        XCTAssertEqual(pattern(router, .delete, "/any//path"), "*")
    }

    private func routerAnswering(_ pattern: String) -> Router {
        var router = Router()
        router.get(pattern) { _ in .just(.text("")) }
        return router
    }

    private func parameters(_ router: Router, _ path: String) -> [String: String]? {
        if case .matched(_, _, let parameters) = router.resolve(method: .get, path: path) { return parameters }
        return nil
    }

    func testEmptySegmentsOfAPathAreIgnored() {
        let router = routerAnswering("/users/{login}/avatar")
        XCTAssertEqual(parameters(router, "//users///ada1/avatar/"), ["login": "ada1"])
        XCTAssertNil(parameters(router, "/users//avatar"))
    }

    func testAParameterCapturesItsSegmentAsDecoded() {
        let router = routerAnswering("/users/{login}")
        XCTAssertEqual(parameters(router, Request(method: .get, target: "/users/%C3%A9t%C3%A9%20x").path), ["login": "été x"])
    }

    func testANonASCIILiteralMatchesACanonicallyEquivalentSpelling() {
        let router = routerAnswering("/caf\u{E9}/{item}")
        XCTAssertEqual(parameters(router, "/cafe\u{301}/1"), ["item": "1"])
        XCTAssertNil(parameters(router, "/cafe/1"))
    }

    func testAPathOfManySegmentsIsMatched() {
        let router = routerAnswering("/" + (1...40).map { "{p\($0)}" }.joined(separator: "/"))
        let found = parameters(router, "/" + (1...40).map(String.init).joined(separator: "/"))
        XCTAssertEqual(found?.count, 40)
        XCTAssertEqual(found?["p40"], "40")
    }

    func testALiteralSegmentMustMatchEveryByte() {
        let router = routerAnswering("/users/{login}/avatar")
        XCTAssertNil(parameters(router, "/users/a/avatars"))
        XCTAssertNil(parameters(router, "/users/a/Avatar"))
        guard case .notFound = router.resolve(method: .get, path: "/users/a/avatar/x") else { return XCTFail() }
    }
}

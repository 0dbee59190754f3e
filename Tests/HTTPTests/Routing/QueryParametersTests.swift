// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import XCTest
@testable import HTTP

final class QueryParametersTests: XCTestCase {
    private enum Mode: String, CaseIterable { case fast, slow }

    private func parameters(_ query: String) -> QueryParameters {
        Request(method: .get, target: "/x?" + query).queryParameters
    }

    func testAbsentParametersTakeTheirDefaults() throws {
        let empty = parameters("")
        XCTAssertNil(try empty.value("a"))
        XCTAssertEqual(try empty.integer("n", in: 1...9, default: 4), 4)
        XCTAssertEqual(try empty.choice("mode", default: Mode.slow), .slow)
        XCTAssertNil(try empty.choices("modes", of: Mode.self))
    }

    func testReadsValidValues() throws {
        let query = parameters("n=7&mode=fast&modes=slow,%20fast&name=a%20b")
        XCTAssertEqual(try query.integer("n", in: 1...9, default: 4), 7)
        XCTAssertEqual(try query.choice("mode", default: Mode.slow), .fast)
        XCTAssertEqual(try query.choices("modes", of: Mode.self), [.slow, .fast])
        XCTAssertEqual(try query.value("name"), "a b")
    }

    func testAnEmptyListMeansNoRestriction() throws {
        XCTAssertNil(try parameters("modes=").choices("modes", of: Mode.self))
    }

    func testAnIntegerOutOfRangeQuotesTheValue() {
        XCTAssertThrowsError(try parameters("n=10").integer("n", in: 1...9, default: 4)) { error in
            XCTAssertEqual((error as? InvalidQueryParameter)?.detail, "Query parameter 'n' must be an integer from 1 to 9, got '10'")
        }
    }

    func testANonNumberIsRefused() {
        XCTAssertThrowsError(try parameters("n=seven").integer("n", in: 1...9, default: 4)) { error in
            XCTAssertEqual((error as? InvalidQueryParameter)?.value, "seven")
        }
    }

    func testAnUnknownChoiceListsTheKnownOnes() {
        XCTAssertThrowsError(try parameters("mode=medium").choice("mode", default: Mode.slow)) { error in
            XCTAssertEqual((error as? InvalidQueryParameter)?.detail, "Query parameter 'mode' must be one of fast, slow, got 'medium'")
        }
    }

    func testAnUnknownListElementQuotesTheWholeValue() {
        XCTAssertThrowsError(try parameters("modes=fast,bogus").choices("modes", of: Mode.self)) { error in
            XCTAssertEqual((error as? InvalidQueryParameter)?.detail, "Query parameter 'modes' must list values from fast, slow, got 'fast,bogus'")
        }
    }

    func testARepeatedParameterIsRefusedNotReadAsTheFirst() {
        XCTAssertThrowsError(try parameters("limit=5&limit=6").integer("limit", in: 1...100, default: 30)) { error in
            XCTAssertEqual(error as? InvalidQueryParameter, InvalidQueryParameter(name: "limit", value: "5', '6", reason: "must be given at most once"))
        }
    }

    func testTheProblemIsA400TitledInvalidQueryParameter() throws {
        let response = InvalidQueryParameter(name: "n", value: "x", reason: "must be a number").response(instance: "/x")
        XCTAssertEqual(response.status, .badRequest)
        XCTAssertEqual(response.headers["Content-Type"], "application/problem+json")
        XCTAssertEqual(
            String(decoding: try XCTUnwrap(response.bodyBytes), as: UTF8.self),
            #"{"type":"about:blank","title":"Invalid query parameter","status":400,"detail":"Query parameter 'n' must be a number, got 'x'","instance":"/x"}"#)
    }

    private static func n(_ parameters: QueryParameters) throws(InvalidQueryParameter) -> Int {
        try parameters.integer("n", in: 1...9, default: 1)
    }

    func testWithQueryHandsTheReadParametersToTheHandler() async throws {
        let request = Request(method: .get, target: "/x?n=4")
        let response = try await request.withQuery(Self.n) { n in .just(.text("n=\(n)")) }.first()
        XCTAssertEqual(response?.bodyBytes, Array("n=4".utf8))
    }

    func testWithQueryAnswersABadParameterWithoutRunningTheHandler() async throws {
        let request = Request(method: .get, target: "/x?n=40")
        let response = try await request.withQuery(Self.n) { _ -> DataStream<Response> in
            XCTFail("the handler ran")
            return .never()
        }.first()
        XCTAssertEqual(response?.status, .badRequest)
    }

    // The closure's `throws` is not written out: it needs no `throws(InvalidQueryParameter)`.
    func testWithQueryTakesAClosureWithoutItsThrownTypeWrittenOut() async throws {
        let request = Request(method: .get, target: "/x?n=40")
        let response = try await request.withQuery({ try $0.integer("n", in: 1...9, default: 1) }) { n in .just(.text("n=\(n)")) }.first()
        XCTAssertEqual(response?.status, .badRequest)
    }

    private struct StoreDown: Error {}

    func testWithQueryFailsTheStreamForAnErrorThatIsNotAnHTTPProblem() async throws {
        let request = Request(method: .get, target: "/x?n=4")
        let answer = request.withQuery({ _ throws(StoreDown) -> Int in throw StoreDown() }) { _ in .just(.text("ran")) }
        do {
            _ = try await answer.first()
            XCTFail("the stream answered")
        } catch {
            XCTAssertTrue(error is StoreDown, "\(error)")
        }
    }

    private static func nAndMode(_ parameters: QueryParameters) throws(InvalidQueryParameter) -> Int {
        _ = try parameters.choice("mode", default: Mode.slow)
        return try parameters.integer("n", in: 1...9, default: 1)
    }

    private func unknown(_ target: String, ignoring ignored: Set<String> = []) async throws -> String? {
        let request = Request(method: .get, target: target)
        let response = try await request.withQuery(Self.nAndMode, ignoring: ignored) { _ in .just(.text("ran")) }.first()
        guard response?.status == .badRequest else { return nil }
        return String(decoding: try XCTUnwrap(response?.bodyBytes), as: UTF8.self)
    }

    func testWithQueryRefusesAParameterTheReaderNeverAskedFor() async throws {
        let answer = try await unknown("/x?m=5")
        let body = try XCTUnwrap(answer)
        XCTAssertTrue(body.contains(#""detail":"Query parameter 'm' is not one this route reads, got '5'; it reads mode, n""#), body)
    }

    func testAnUnknownParameterCloseToAKnownOneSuggestsIt() async throws {
        let answer = try await unknown("/x?mdoe=fast&n=2")
        let body = try XCTUnwrap(answer)
        XCTAssertTrue(body.contains("did you mean 'mode'?"), body)
    }

    func testAnUnknownParameterFarFromEveryKnownOneSuggestsNothing() async throws {
        let answer = try await unknown("/x?colour=red")
        let body = try XCTUnwrap(answer)
        XCTAssertFalse(body.contains("did you mean"), body)
    }

    func testIgnoredParametersAreAcceptedWithoutBeingRead() async throws {
        let answer = try await unknown("/x?n=2&_=1700000000&token=abc", ignoring: ["_", "token"])
        XCTAssertNil(answer)
    }

    func testABadValueIsReportedBeforeAnUnknownName() async throws {
        let answer = try await unknown("/x?n=99&extra=1")
        let body = try XCTUnwrap(answer)
        XCTAssertTrue(body.contains("'n' must be an integer"), body)
    }

    func testEditDistanceCountsInsertionsDeletionsSubstitutionsAndSwaps() {
        XCTAssertEqual(EditDistance.between("limt", "limit"), 1)
        XCTAssertEqual(EditDistance.between("limits", "limit"), 1)
        XCTAssertEqual(EditDistance.between("lumit", "limit"), 1)
        XCTAssertEqual(EditDistance.between("lmiit", "limit"), 1)
        XCTAssertEqual(EditDistance.between("", "abc"), 3)
        XCTAssertEqual(EditDistance.between("kitten", "sitting"), 3)
    }
}

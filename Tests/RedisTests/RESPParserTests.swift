// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Redis
import XCTest

final class RESPParserTests: XCTestCase {
    private func parse(_ text: String, limits: RESPLimits = RESPLimits()) -> [RESPParser.Output] {
        parse(Array(text.utf8), limits: limits)
    }

    private func parse(_ bytes: [UInt8], limits: RESPLimits = RESPLimits()) -> [RESPParser.Output] {
        var parser = RESPParser(limits: limits)
        var outputs: [RESPParser.Output] = []
        parser.feed(bytes) { outputs.append($0) }
        return outputs
    }

    func testEachScalarKindIsParsed() {
        XCTAssertEqual(parse("+OK\r\n-ERR bad\r\n:42\r\n:-3\r\n$5\r\nhello\r\n$0\r\n\r\n$-1\r\n"), [
            .value(.simpleString("OK")), .value(.error("ERR bad")), .value(.integer(42)), .value(.integer(-3)),
            .value(.bulkString(Array("hello".utf8))), .value(.bulkString([])), .value(.null),
        ])
    }

    func testBulkStringsMayHoldCRLFAndNUL() {
        XCTAssertEqual(parse("$4\r\n\r\n\0x\r\n"), [.value(.bulkString([13, 10, 0, 120]))])
    }

    func testNestedArraysAsXREADRepliesThem() {
        let reply = "*1\r\n*2\r\n$6\r\nevents\r\n*1\r\n*2\r\n$3\r\n7-0\r\n*2\r\n$1\r\nd\r\n$2\r\nhi\r\n"
        let entry = RESPValue.array([.bulkString(Array("7-0".utf8)), .array([.bulkString([100]), .bulkString(Array("hi".utf8))])])
        XCTAssertEqual(parse(reply), [.value(.array([.array([.bulkString(Array("events".utf8)), .array([entry])])]))])
    }

    func testNullAndEmptyArrays() {
        XCTAssertEqual(parse("*-1\r\n*0\r\n"), [.value(.null), .value(.array([]))])
    }

    func testFeedingOneByteAtATimeGivesTheSameValues() {
        let text = "*3\r\n:1\r\n$3\r\nabc\r\n*2\r\n+x\r\n-E\r\n+after\r\n"
        var parser = RESPParser()
        var outputs: [RESPParser.Output] = []
        for byte in text.utf8 { parser.feed([byte]) { outputs.append($0) } }
        XCTAssertEqual(outputs, parse(text))
        XCTAssertEqual(outputs.count, 2)
        XCTAssertTrue(parser.isIdle)
    }

    func testIncompleteReplyEmitsNothingYet() {
        var parser = RESPParser()
        var outputs: [RESPParser.Output] = []
        parser.feed(Array("*2\r\n:1\r\n$5\r\nhel".utf8)) { outputs.append($0) }
        XCTAssertEqual(outputs, [])
        XCTAssertFalse(parser.isIdle)
        parser.feed(Array("lo\r\n".utf8)) { outputs.append($0) }
        XCTAssertEqual(outputs, [.value(.array([.integer(1), .bulkString(Array("hello".utf8))]))])
    }

    func testUnknownTypeByteFailsAtOnce() {
        XCTAssertEqual(parse("?"), [.failure(.unknownType(UInt8(ascii: "?")))])
    }

    func testBadLengthsFail() {
        XCTAssertEqual(parse("$abc\r\n"), [.failure(.badNumber("abc"))])
        XCTAssertEqual(parse("$-2\r\n"), [.failure(.badNumber("-2"))])
        XCTAssertEqual(parse("*-5\r\n"), [.failure(.badNumber("-5"))])
        XCTAssertEqual(parse(":12x\r\n"), [.failure(.badNumber("12x"))])
    }

    func testBareLineFeedFails() {
        XCTAssertEqual(parse("+OK\n"), [.failure(.bareLineFeed)])
    }

    func testBulkBodyWithoutCRLFFails() {
        XCTAssertEqual(parse("$2\r\nabXY"), [.failure(.missingCRLF)])
    }

    func testOversizedBulkIsRejectedFromItsHeaderBeforeAnyBodyArrives() {
        var limits = RESPLimits()
        limits.maxBulkBytes = 10
        XCTAssertEqual(parse("$11\r\n", limits: limits), [.failure(.bulkTooLarge(11, limit: 10))])
    }

    func testOversizedArrayIsRejectedFromItsHeader() {
        var limits = RESPLimits()
        limits.maxArrayCount = 3
        XCTAssertEqual(parse("*4\r\n", limits: limits), [.failure(.arrayTooLarge(4, limit: 3))])
    }

    func testNestingDeeperThanTheLimitFails() {
        var limits = RESPLimits()
        limits.maxDepth = 2
        XCTAssertEqual(parse("*1\r\n*1\r\n*1\r\n", limits: limits), [.failure(.nestedTooDeep(limit: 2))])
    }

    func testLineLongerThanTheLimitFailsEvenBeforeItsEnd() {
        var limits = RESPLimits()
        limits.maxLineBytes = 8
        XCTAssertEqual(parse("+" + String(repeating: "a", count: 20), limits: limits), [.failure(.lineTooLong(limit: 8))])
        XCTAssertEqual(parse("+12345678\r\n", limits: limits), [.value(.simpleString("12345678"))])
    }

    func testInputAfterAFailureIsIgnored() {
        var parser = RESPParser()
        var outputs: [RESPParser.Output] = []
        parser.feed(Array("+a\r\n!".utf8)) { outputs.append($0) }
        parser.feed(Array("+b\r\n".utf8)) { outputs.append($0) }
        XCTAssertEqual(outputs, [.value(.simpleString("a")), .failure(.unknownType(UInt8(ascii: "!")))])
        XCTAssertTrue(parser.hasFailed)
    }

    func testEncodedValuesParseBackToThemselves() {
        let value = RESPValue.array([.simpleString("OK"), .integer(Int.min), .bulkString(Array(repeating: 7, count: 70_000)), .null, .array([.error("E")])])
        XCTAssertEqual(parse(RESPEncoder.encode(value)), [.value(value)])
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

/// The examples of RFC 7541 Appendix C, decoded block after block on one decoder, as a
/// connection's blocks arrive; the dynamic table's size after each is the RFC's.
final class HPACKDecoderTests: XCTestCase {
    private func assertDecodes(
        _ decoder: inout HPACKDecoder, _ hex: String, to expected: [String], tableSize: Int,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        // The decoder into bytes (the client's fast path), from the same table: the same fields, marks and table.
        var twin = decoder
        let bytes = try hexBytes(hex).withUnsafeBufferPointer { try twin.decodeBytes($0) }
        let block = try decoder.decode(hexBytes(hex))
        XCTAssertEqual(fieldPairs(block.fields), expected, file: file, line: line)
        XCTAssertEqual(decoder.dynamicTableSize, tableSize, file: file, line: line)
        XCTAssertEqual(fieldPairs(bytes.fields), expected, file: file, line: line)
        XCTAssertEqual(bytes.checkedFields, block.checkedFields, file: file, line: line)
        XCTAssertEqual(twin.dynamicTableSize, tableSize, file: file, line: line)
    }

    func testLiteralWithIndexingIsAddedToTheTable() throws { // C.2.1
        var decoder = HPACKDecoder()
        try assertDecodes(&decoder, "400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572",
                          to: ["custom-key: custom-header"], tableSize: 55)
    }

    func testLiteralWithoutIndexingLeavesTheTableEmpty() throws { // C.2.2
        var decoder = HPACKDecoder()
        try assertDecodes(&decoder, "040c 2f73 616d 706c 652f 7061 7468", to: [":path: /sample/path"], tableSize: 0)
    }

    func testNeverIndexedLiteralLeavesTheTableEmpty() throws { // C.2.3
        var decoder = HPACKDecoder()
        try assertDecodes(&decoder, "1008 7061 7373 776f 7264 0673 6563 7265 74", to: ["password: secret"], tableSize: 0)
    }

    func testIndexedFieldComesFromTheStaticTable() throws { // C.2.4
        var decoder = HPACKDecoder()
        try assertDecodes(&decoder, "82", to: [":method: GET"], tableSize: 0)
    }

    func testRequestsWithoutHuffmanShareTheDynamicTable() throws { // C.3
        var decoder = HPACKDecoder()
        try assertDecodes(&decoder, "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
                          to: [":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com"], tableSize: 57)
        try assertDecodes(&decoder, "8286 84be 5808 6e6f 2d63 6163 6865",
                          to: [":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com", "cache-control: no-cache"], tableSize: 110)
        try assertDecodes(&decoder, "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65",
                          to: [":method: GET", ":scheme: https", ":path: /index.html", ":authority: www.example.com", "custom-key: custom-value"], tableSize: 164)
    }

    func testRequestsWithHuffmanShareTheDynamicTable() throws { // C.4
        var decoder = HPACKDecoder()
        try assertDecodes(&decoder, "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff",
                          to: [":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com"], tableSize: 57)
        try assertDecodes(&decoder, "8286 84be 5886 a8eb 1064 9cbf",
                          to: [":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com", "cache-control: no-cache"], tableSize: 110)
        try assertDecodes(&decoder, "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf",
                          to: [":method: GET", ":scheme: https", ":path: /index.html", ":authority: www.example.com", "custom-key: custom-value"], tableSize: 164)
    }

    private static let responseC5 = [
        "4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
        "4803 3330 37c1 c0bf",
        "88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31",
    ]

    private static let responseC6 = [
        "4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3",
        "4883 640e ffc1 c0bf",
        "88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07",
    ]

    private static let responseFields = [
        [":status: 302", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:21 GMT", "location: https://www.example.com"],
        [":status: 307", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:21 GMT", "location: https://www.example.com"],
        [":status: 200", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:22 GMT", "location: https://www.example.com",
         "content-encoding: gzip", "set-cookie: foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"],
    ]

    func testResponsesWithoutHuffmanEvictOldEntriesFromA256ByteTable() throws { // C.5
        var decoder = HPACKDecoder(maxTableSize: 256)
        for (block, (fields, size)) in zip(Self.responseC5, zip(Self.responseFields, [222, 222, 215])) {
            try assertDecodes(&decoder, block, to: fields, tableSize: size)
        }
        XCTAssertEqual(decoder.dynamicTableCount, 3)
    }

    func testResponsesWithHuffmanEvictOldEntriesFromA256ByteTable() throws { // C.6
        var decoder = HPACKDecoder(maxTableSize: 256)
        for (block, (fields, size)) in zip(Self.responseC6, zip(Self.responseFields, [222, 222, 215])) {
            try assertDecodes(&decoder, block, to: fields, tableSize: size)
        }
    }

    func testTableSizeUpdateEvictsEntries() throws {
        var decoder = HPACKDecoder()
        _ = try decoder.decode(hexBytes("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"))
        // 001 00000: size 0, then :method GET.
        let block = try decoder.decode([0x20, 0x82])
        XCTAssertEqual(fieldPairs(block.fields), [":method: GET"])
        XCTAssertEqual(decoder.dynamicTableSize, 0)
    }

    func testTableSizeUpdateAboveTheSettingIsRefused() {
        var decoder = HPACKDecoder(maxTableSize: 4096)
        // 001 11111 + 4097 - 31 = 4066 → e2 1f.
        XCTAssertThrowsError(try decoder.decode([0x3F, 0xE2, 0x1F])) { XCTAssertEqual($0 as? HPACKError, .invalidTableSizeUpdate(4097)) }
    }

    func testTableSizeUpdateAfterAFieldIsRefused() {
        var decoder = HPACKDecoder()
        XCTAssertThrowsError(try decoder.decode([0x82, 0x20])) { XCTAssertEqual($0 as? HPACKError, .tableSizeUpdateAfterField) }
    }

    func testIndexZeroIsRefused() {
        var decoder = HPACKDecoder()
        XCTAssertThrowsError(try decoder.decode([0x80])) { XCTAssertEqual($0 as? HPACKError, .invalidIndex(0)) }
    }

    func testIndexPastTheTablesIsRefused() {
        var decoder = HPACKDecoder()
        XCTAssertThrowsError(try decoder.decode([0xBE])) { XCTAssertEqual($0 as? HPACKError, .invalidIndex(62)) }
    }

    func testIntegerOfTooManyBytesIsRefused() {
        var decoder = HPACKDecoder()
        XCTAssertThrowsError(try decoder.decode([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])) { XCTAssertEqual($0 as? HPACKError, .integerOverflow) }
    }

    func testTruncatedStringIsRefused() {
        var decoder = HPACKDecoder()
        XCTAssertThrowsError(try decoder.decode([0x04, 0x0C, 0x2F])) { XCTAssertEqual($0 as? HPACKError, .truncated) }
    }

    func testStringAboveTheLimitIsRefusedBeforeItIsRead() {
        var decoder = HPACKDecoder(maxStringLength: 16)
        XCTAssertThrowsError(try decoder.decode([0x04, 0x7F, 0x02])) { XCTAssertEqual($0 as? HPACKError, .stringTooLong(129)) }
    }

    func testHuffmanPaddingOfZerosIsRefused() {
        var decoder = HPACKDecoder()
        // "a" is 00011 (5 bits); padded with zeros instead of ones.
        XCTAssertThrowsError(try decoder.decode([0x04, 0x81, 0x18])) { XCTAssertEqual($0 as? HPACKError, .invalidHuffman) }
    }

    func testHuffmanPaddingOfAWholeByteIsRefused() {
        var decoder = HPACKDecoder()
        // "a" then 11 bits of ones: more than 7 bits of padding.
        XCTAssertThrowsError(try decoder.decode([0x04, 0x82, 0x1F, 0xFF])) { XCTAssertEqual($0 as? HPACKError, .invalidHuffman) }
    }

    func testHuffmanEOSIsRefused() {
        var decoder = HPACKDecoder()
        XCTAssertThrowsError(try decoder.decode([0x04, 0x84, 0xFF, 0xFF, 0xFF, 0xFF])) { XCTAssertEqual($0 as? HPACKError, .invalidHuffman) }
    }

    func testListAboveTheLimitIsCountedButNotKept() throws {
        // The HPACK bomb: one 4 KiB entry named again and again by one byte each.
        var decoder = HPACKDecoder(maxHeaderListSize: 16 * 1024)
        var block: [UInt8] = [0x40, 0x01, UInt8(ascii: "x"), 0x7F, 0xA1, 0x1E] // a value of 127 + 33 + 30 × 128 = 4,000 bytes
        block += [UInt8](repeating: UInt8(ascii: "a"), count: 4000)
        block += [UInt8](repeating: 0xBE, count: 1000)
        let decoded = try decoder.decode(block)
        XCTAssertTrue(decoded.overListSize)
        XCTAssertTrue(decoded.fields.isEmpty)
        XCTAssertEqual(decoder.dynamicTableCount, 1, "the table stays in step with the encoder's")
    }
}

// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamsTesting
import XCTest
@testable import HTTP

/// Frames written by `HTTP2FrameEncoder` read back the same through `HTTP2FrameDecoder`, and every
/// frame RFC 9113 §4–6 forbids on its own is refused with the error it names.
final class HTTP2FrameCodecTests: XCTestCase {
    private func roundTrip(_ frame: HTTP2Frame, padding: Int = 0, file: StaticString = #filePath, line: UInt = #line) throws -> HTTP2Frame {
        var bytes: [UInt8] = []
        HTTP2FrameEncoder.append(frame, padding: padding, into: &bytes)
        var decoder = HTTP2FrameDecoder()
        decoder.append(bytes)
        let decoded = try XCTUnwrap(try decoder.next(), file: file, line: line)
        XCTAssertNil(try decoder.next(), file: file, line: line)
        return decoded
    }

    private func decodeError(_ header: [UInt8], _ payload: [UInt8], maxFrameSize: Int = 16_384) -> HTTP2ProtocolError? {
        var decoder = HTTP2FrameDecoder(maxFrameSize: maxFrameSize)
        let length = payload.count
        decoder.append([UInt8(length >> 16), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)] + header + payload)
        do {
            _ = try decoder.next()
            return nil
        } catch {
            return error
        }
    }

    func testEveryFrameTypeRoundTrips() throws {
        let frames = [
            HTTP2Frame(streamID: 1, flags: .endStream, payload: .data(Array("body".utf8))),
            HTTP2Frame(streamID: 3, flags: [.endHeaders], payload: .headers(fragment: [0x82, 0x86], dependsOn: nil)),
            HTTP2Frame(streamID: 3, flags: [.endHeaders, .endStream], payload: .headers(fragment: [0x82], dependsOn: 1)),
            HTTP2Frame(streamID: 5, payload: .priority(dependsOn: 3)),
            HTTP2Frame(streamID: 5, payload: .rstStream(.cancel)),
            HTTP2Frame(streamID: 0, payload: .settings([HTTP2Setting(.maxConcurrentStreams, 100), HTTP2Setting(.initialWindowSize, 1)])),
            HTTP2Frame(streamID: 0, flags: .ack, payload: .settings([])),
            HTTP2Frame(streamID: 1, flags: .endHeaders, payload: .pushPromise(promisedStreamID: 2, fragment: [0x82])),
            HTTP2Frame(streamID: 0, flags: .ack, payload: .ping([1, 2, 3, 4, 5, 6, 7, 8])),
            HTTP2Frame(streamID: 0, payload: .goAway(lastStreamID: 7, code: .enhanceYourCalm, debugData: Array("calm".utf8))),
            HTTP2Frame(streamID: 0, payload: .windowUpdate(increment: 65_535)),
            HTTP2Frame(streamID: 1, flags: .endHeaders, payload: .continuation(fragment: [0x84])),
            HTTP2Frame(streamID: 1, flags: HTTP2Flags(rawValue: 0xFF), payload: .unknown(type: 0x20, payload: [9, 9])),
        ]
        for frame in frames {
            XCTAssertEqual(try roundTrip(frame), frame)
        }
    }

    func testPaddingIsRemovedButCountedForFlowControl() throws {
        let decoded = try roundTrip(HTTP2Frame(streamID: 1, payload: .data([1, 2, 3])), padding: 10)
        XCTAssertEqual(decoded.payload, .data([1, 2, 3]))
        XCTAssertEqual(decoded.flowControlledLength, 14, "pad length byte, 3 data bytes, 10 padding bytes")
        let headers = try roundTrip(HTTP2Frame(streamID: 1, flags: .endHeaders, payload: .headers(fragment: [0x82], dependsOn: 3)), padding: 4)
        XCTAssertEqual(headers.payload, .headers(fragment: [0x82], dependsOn: 3))
    }

    func testFramesArriveWholeFromPieces() throws {
        var bytes: [UInt8] = []
        HTTP2FrameEncoder.append(HTTP2Frame(streamID: 1, payload: .data(Array(repeating: 7, count: 100))), into: &bytes)
        HTTP2FrameEncoder.append(HTTP2Frame(streamID: 0, payload: .ping([0, 0, 0, 0, 0, 0, 0, 1])), into: &bytes)
        var decoder = HTTP2FrameDecoder()
        var frames: [HTTP2Frame] = []
        for byte in bytes {
            decoder.append([byte])
            while let frame = try decoder.next() { frames.append(frame) }
        }
        XCTAssertEqual(frames.map(\.type), [.data, .ping])
        XCTAssertEqual(decoder.bufferedByteCount, 0)
    }

    /// Frames cut where they lie (the fast path) against `next()` over the same bytes (its slow
    /// twin), the bytes read in random pieces: the same frames, and nothing left over.
    func testFramesCutInPlaceAreTheFramesNextMakesWhateverThePieces() throws {
        var random = SeededRandom(seed: 3817)
        for _ in 0..<200 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                let id = UInt32.random(in: 1...9, using: &random) | 1
                let body = [UInt8](repeating: UInt8.random(in: 0...255, using: &random), count: Int.random(in: 0...40, using: &random))
                let frame = switch Int.random(in: 0..<5, using: &random) {
                case 0: HTTP2Frame(streamID: id, flags: .endStream, payload: .data(body))
                case 1: HTTP2Frame(streamID: id, flags: .endHeaders, payload: .headers(fragment: body, dependsOn: Bool.random(using: &random) ? 1 : nil))
                case 2: HTTP2Frame(streamID: 0, payload: .windowUpdate(increment: UInt32(body.count + 1)))
                case 3: HTTP2Frame(streamID: id, payload: .continuation(fragment: body))
                default: HTTP2Frame(streamID: 0, payload: .ping([1, 2, 3, 4, 5, 6, 7, 8]))
                }
                HTTP2FrameEncoder.append(frame, padding: Int.random(in: 0...3, using: &random) == 0 ? 3 : 0, into: &bytes)
            }
            var whole = HTTP2FrameDecoder()
            whole.append(bytes)
            var expected: [HTTP2Frame] = []
            while let frame = try whole.next() { expected.append(frame) }
            var inPlace = HTTP2FrameDecoder()
            var cut: [HTTP2Frame] = []
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + Int.random(in: 1...60, using: &random))
                try bytes[offset..<end].withUnsafeBytes { piece in
                    try inPlace.frames(in: piece) { header, payload in
                        cut.append(try! HTTP2FrameDecoder.frame(type: header.type, flags: header.flags, streamID: header.streamID, payload: Array(payload)))
                        return true
                    }
                }
                offset = end
            }
            XCTAssertEqual(cut, expected)
            XCTAssertEqual(inPlace.bufferedByteCount, 0)
        }
    }

    func testFramesCutInPlaceRefuseAFrameAboveMaxFrameSize() {
        var decoder = HTTP2FrameDecoder(maxFrameSize: 16)
        let bytes: [UInt8] = [0, 0, 17, 0, 0, 0, 0, 0, 1]
        XCTAssertThrowsError(try bytes.withUnsafeBytes { bytes in try decoder.frames(in: bytes) { _, _ in true } }) { error in
            XCTAssertEqual((error as? HTTP2ProtocolError)?.code, .frameSizeError)
        }
    }

    func testFrameAboveMaxFrameSizeIsAFrameSizeError() {
        XCTAssertEqual(decodeError([0, 0, 0, 0, 1], Array(repeating: 0, count: 16_385))?.code, .frameSizeError)
    }

    func testPaddingLongerThanThePayloadIsAProtocolError() {
        let error = decodeError([0, 0x08, 0, 0, 0, 1], [5, 1, 2])
        XCTAssertEqual(error?.code, .protocolError)
        XCTAssertNil(error?.streamID, "a connection error")
    }

    func testDataOnStreamZeroIsAProtocolError() {
        XCTAssertEqual(decodeError([0, 0, 0, 0, 0, 0], [1])?.code, .protocolError)
    }

    func testSettingsOfOddLengthIsAFrameSizeError() {
        XCTAssertEqual(decodeError([4, 0, 0, 0, 0, 0], [0, 3, 0, 0, 0])?.code, .frameSizeError)
    }

    func testSettingsAcknowledgementWithAPayloadIsAFrameSizeError() {
        XCTAssertEqual(decodeError([4, 1, 0, 0, 0, 0], [0, 3, 0, 0, 0, 1])?.code, .frameSizeError)
    }

    func testSettingsOnAStreamIsAProtocolError() {
        XCTAssertEqual(decodeError([4, 0, 0, 0, 0, 1], [])?.code, .protocolError)
    }

    func testPingOfSevenBytesIsAFrameSizeError() {
        XCTAssertEqual(decodeError([6, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0])?.code, .frameSizeError)
    }

    func testPriorityOfFourBytesIsAStreamError() {
        let error = decodeError([2, 0, 0, 0, 0, 1], [0, 0, 0, 3])
        XCTAssertEqual(error?.code, .frameSizeError)
        XCTAssertEqual(error?.streamID, 1)
    }

    func testRstStreamOfThreeBytesIsAFrameSizeError() {
        XCTAssertEqual(decodeError([3, 0, 0, 0, 0, 1], [0, 0, 8])?.code, .frameSizeError)
    }

    func testWindowUpdateOfFiveBytesIsAFrameSizeError() {
        XCTAssertEqual(decodeError([8, 0, 0, 0, 0, 0], [0, 0, 0, 0, 1])?.code, .frameSizeError)
    }

    func testGoAwayOnAStreamIsAProtocolError() {
        XCTAssertEqual(decodeError([7, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0, 0, 0])?.code, .protocolError)
    }

    func testReservedBitOfTheStreamIdIsIgnored() throws {
        var decoder = HTTP2FrameDecoder()
        decoder.append([0, 0, 1, 0, 0, 0x80, 0, 0, 1, 0x41])
        XCTAssertEqual(try decoder.next()?.streamID, 1)
    }

    func testPeerSettingsOutOfRangeAreRefused() {
        XCTAssertEqual(settingError(HTTP2Setting(.enablePush, 2))?.code, .protocolError)
        XCTAssertEqual(settingError(HTTP2Setting(.initialWindowSize, 1 << 31))?.code, .flowControlError)
        XCTAssertEqual(settingError(HTTP2Setting(.maxFrameSize, 16_383))?.code, .protocolError)
        XCTAssertEqual(settingError(HTTP2Setting(.maxFrameSize, 1 << 24))?.code, .protocolError)
        XCTAssertNil(settingError(HTTP2Setting(HTTP2Setting.Identifier(rawValue: 0x99), 5)), "unknown settings are ignored")
    }

    private func settingError(_ setting: HTTP2Setting) -> HTTP2ProtocolError? {
        var settings = HTTP2PeerSettings()
        do {
            try settings.apply(setting)
            return nil
        } catch {
            return error
        }
    }
}
